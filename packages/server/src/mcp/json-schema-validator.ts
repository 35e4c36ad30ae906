import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { checkPageArguments } from '../core/page-arguments';

/**
 * The MCP SDK checks elicitation and tool output schemas with a JSON Schema validator; by default
 * it builds Ajv, which costs the server process about 6 MiB resident (docs/requirements.md#bars memory bar).
 * Output schemas may be page-written, so they get the page-argument checker, which runs no page
 * regex and stops on a budget (core/page-arguments.ts).
 */
export class ProtocolJsonSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    return (input: unknown) => {
      const problems = checkPageArguments(schema, input, 'value');
      return problems.length === 0
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: problems.join('; ') };
    };
  }
}

// scripts/build.mjs points the SDK's `validation/ajv-provider.js` here, so Ajv stays out of the bundle.
/** @public (imported by the SDK through the build's alias, which knip cannot see) */
export { ProtocolJsonSchemaValidator as AjvJsonSchemaValidator };
