import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { validateJsonSchema } from '@tabmcp/protocol';

/**
 * The MCP SDK checks elicitation and tool output schemas with a JSON Schema validator; by default
 * it builds Ajv, which costs the server process about 6 MiB resident (DESIGN.md memory bar).
 * tabmcp already has a checker for tool arguments: the same one serves the SDK. Output schemas
 * may be page-written, so their patterns are not run here (ReDoS; protocol/json-schema.ts).
 */
export class ProtocolJsonSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    return (input: unknown) => {
      const problems = validateJsonSchema(schema as Record<string, unknown>, input, 'value', { patterns: false });
      return problems.length === 0
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: problems.join('; ') };
    };
  }
}

// scripts/build.mjs points the SDK's `validation/ajv-provider.js` here, so Ajv stays out of the bundle.
/** @public (imported by the SDK through the build's alias, which knip cannot see) */
export { ProtocolJsonSchemaValidator as AjvJsonSchemaValidator };
