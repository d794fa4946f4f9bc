import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';

// The served API document (GET /api/docs) as a contract the tests hold answers to (decision 034):
// every status a test observes must be declared on its operation, and every JSON body must match the
// declared schema under a strict JSON Schema 2020-12 validator (ajv, no extra fields allowed where
// the schema says so); a file answer must come with one of the declared content types.

interface MediaType {
  schema?: object;
}
interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}
export interface ApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

/** The document's path of a route url: `:id` is `{id}`, no trailing slash. */
export const documentPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/(.)\/$/, '$1');

export class Contract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<object, ValidateFunction>();
  /** Every mismatch seen, one line each. */
  readonly mismatches: string[] = [];
  /** How many answers were checked. */
  checked = 0;

  constructor(readonly document: ApiDocument) {
    addFormats.default(this.ajv);
    this.ajv.addFormat('binary', true);
  }

  operation(route: { method: string; url: string }): Operation | undefined {
    return this.document.paths[documentPath(route.url)]?.[route.method.toLowerCase()];
  }

  /** Checks one answer of a route (its url as registered, `:id` form); records and returns the mismatches. */
  check(route: { method: string; url: string }, res: LightMyRequestResponse): string[] {
    this.checked++;
    const key = `${route.method} ${route.url} → ${res.statusCode}`;
    const problems: string[] = [];
    const op = this.operation(route);
    if (!op) problems.push(`${key}: no such operation in the document`);
    else {
      const declared = op.responses?.[String(res.statusCode)];
      if (!declared) problems.push(`${key}: status not declared (declared: ${Object.keys(op.responses ?? {}).join(', ')})`);
      else if (declared.content) {
        const type = String(res.headers['content-type'] ?? '')
          .split(';')[0]
          .trim();
        const media = declared.content[type];
        if (!media) problems.push(`${key}: content type ${type || '(none)'} not declared (declared: ${Object.keys(declared.content).join(', ')})`);
        else if (type === 'application/json' && media.schema) {
          const validate = this.validator(media.schema);
          if (!validate(res.json())) {
            const errors = (validate.errors ?? [])
              .slice(0, 3)
              .map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
            problems.push(`${key}: body does not match: ${errors.join('; ')}`);
          }
        }
      }
    }
    this.mismatches.push(...problems);
    return problems;
  }

  private validator(schema: object): ValidateFunction {
    let v = this.compiled.get(schema);
    if (!v) {
      v = this.ajv.compile(schema);
      this.compiled.set(schema, v);
    }
    return v;
  }
}
