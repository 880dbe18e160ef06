import { $RefParser } from "@apidevtools/json-schema-ref-parser";
import { type ConvertedApi, convertDescription } from "./convert";

/**
 * The tools of an OpenAPI 3.0/3.1 or Swagger 2.0 description given as JSON text or as a parsed
 * object: its `$ref`s resolved with @apidevtools/json-schema-ref-parser (internal ones only: the
 * gateway fetches nothing a description points to), circular ones as cycles of objects (the converter marks where a schema recurs).
 */
export async function describeApi(description: string | object): Promise<ConvertedApi> {
  let doc: unknown = description;
  if (typeof description === "string") {
    try {
      doc = JSON.parse(description);
    } catch (err) {
      throw new Error(`OpenAPI description: not valid JSON (${(err as Error).message})`);
    }
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw new Error("OpenAPI description: not a JSON object");
  }
  const resolved = await new $RefParser().dereference(structuredClone(doc), {
    resolve: { external: false },
    dereference: { circular: true },
  });
  return convertDescription(resolved);
}
