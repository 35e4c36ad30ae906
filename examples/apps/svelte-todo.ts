import { mount } from 'svelte';
import Todo from './svelte-todo.svelte';

mount(Todo, { target: document.getElementById('app') as HTMLElement });
