import { ProtocolJsonSchemaValidator } from './json-schema-validator';

/**
 * The MCP SDK 2.x's Node shims (`@modelcontextprotocol/server/_shims`), which scripts/build.mjs
 * puts in their place for the bundle: the SDK's own default validator is Ajv, loaded with the SDK
 * even though serve-mcp.ts hands it ours, and Ajv is ~150 KB of the bundle and about 1 MiB resident.
 * Only the build's alias imports this file, so knip.json names it an entry.
 */
export const DefaultJsonSchemaValidator = ProtocolJsonSchemaValidator;
export const process = globalThis.process;
