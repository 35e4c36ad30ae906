#!/usr/bin/env node
// The bundled proxy CLI (node scripts/build.mjs writes it); see docs/proxy.md.
import '../dist/tabmcp-proxy.js';
