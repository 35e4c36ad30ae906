// The Svelte compiler turns .svelte files into components; esbuild's plugin in build.ts runs it.
declare module '*.svelte' {
  import type { Component } from 'svelte';

  const component: Component;
  export default component;
}
