import { mount } from 'svelte';
import Appearance from './bits-ui.svelte';

mount(Appearance, { target: document.getElementById('app') as HTMLElement });
