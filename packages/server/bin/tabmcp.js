#!/usr/bin/env node
import '../dist/tabmcp.js';
