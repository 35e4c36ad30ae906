// The one-file <script> build: defines `window.TabMcp`.
import * as sdk from './index';

Object.defineProperty(globalThis, 'TabMcp', { value: sdk, configurable: true, enumerable: false, writable: false });
