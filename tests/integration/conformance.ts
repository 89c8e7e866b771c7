import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";

/**
 * "What /docs promises is what the server does", checked on every response the integration tests receive: the
 * operation is found in the server's own /api/openapi.json by method and path template; its status must be one the
 * operation documents, and a JSON body must match the documented schema for that status (JSON Schema 2020-12, as
 * OpenAPI 3.1 uses it, with Ajv). Paths the document does not describe (tRPC, next-auth, the 404 catch-all) are
 * not checked. `checkConformance` returns the problem or null; `api()` fails the test on a problem.
 */
type Doc = {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>
  >;
};
type Route = {
  template: string;
  regex: RegExp;
  methods: Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>;
};

const cache = new Map<string, Promise<{ routes: Route[]; ajv: Ajv2020 }>>();
const validators = new Map<string, ValidateFunction>();

const escapePointer = (s: string) => s.replaceAll("~", "~0").replaceAll("/", "~1");

function load(base: string) {
  let p = cache.get(base);
  if (!p) {
    p = (async () => {
      const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as Doc;
      const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
      addFormats(ajv);
      ajv.addSchema(doc as object, "openapi");
      // literal segments first, so /versions/latest wins over /versions/{version} when both exist
      const routes = Object.entries(doc.paths)
        .map(([template, methods]) => ({
          template,
          regex: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
          methods: methods as Route["methods"],
        }))
        .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
      return { routes, ajv };
    })();
    cache.set(base, p);
  }
  return p;
}

export async function checkConformance(
  base: string,
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: unknown,
): Promise<string | null> {
  const { routes, ajv } = await load(base);
  const pathname = new URL(url, base).pathname;
  const route = routes.find((r) => r.regex.test(pathname));
  const m = method.toLowerCase();
  if (!route) return null;
  const op = route.methods[m];
  if (!op) {
    if (status === 405) return null; // a method the path does not serve: 405 is the documented answer (METHOD_NOT_ALLOWED)
    return `${method} ${route.template} is not documented but answered ${status}`;
  }
  const documented = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
  if (!documented)
    return `${method} ${route.template} answered ${status}, which it does not document (documented: ${Object.keys(op.responses).join(", ")})`;
  const schema = documented.content?.["application/json"]?.schema;
  if (!schema || !contentType?.includes("json") || body === undefined) return null;
  const key = `${base} ${route.template} ${m} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const which = op.responses[String(status)]
      ? String(status)
      : op.responses[`${String(status)[0]}XX`]
        ? `${String(status)[0]}XX`
        : "default";
    validate = ajv.compile({
      $ref: `openapi#/paths/${escapePointer(route.template)}/${m}/responses/${which}/content/application~1json/schema`,
    });
    validators.set(key, validate);
  }
  if (validate(body)) return null;
  return `${method} ${route.template} ${status}: the body breaks the documented schema: ${ajv.errorsText(validate.errors, { separator: "; " }).slice(0, 800)}`;
}
