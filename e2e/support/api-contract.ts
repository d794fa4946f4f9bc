import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect, type APIRequestContext, type Page, type Response } from '@playwright/test';
import { outputDir } from './screens.ts';

// The served API document (GET /api/docs, decision 034) as the contract the web app's real answers
// are held to in the browser, like server/test/contract.ts holds the server tests' answers: every
// answer the page receives from the app's own API must have a status its operation declares, and a
// JSON body that matches that status's schema under a strict JSON Schema 2020-12 validator.

interface MediaType {
  schema?: object;
}
interface Operation {
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}
export interface ApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

/** One answer as the browser got it. */
export interface Answer {
  method: string;
  /** The path without the query, as requested (`/api/entry/12`). */
  path: string;
  status: number;
  contentType: string;
  /** The parsed JSON body; undefined for an answer without one (204, a redirect, a file). */
  body?: unknown;
}

/** A path template of the document as a matcher; `{id}` takes one segment. */
interface Template {
  template: string;
  pattern: RegExp;
  /** Literal segments win over parameters: `/api/service/facets` before `/api/service/{id}`. */
  params: number;
}

const templateOf = (template: string): Template => {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return { template, pattern: new RegExp(`^${source}/?$`), params: (template.match(/\{/g) ?? []).length };
};

/** The document's operations, matched by a request's method and path. */
export class ApiContract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<object, ValidateFunction>();
  private readonly templates: Template[];

  constructor(readonly document: ApiDocument) {
    addFormats.default(this.ajv);
    this.ajv.addFormat('binary', true);
    this.templates = Object.keys(document.paths)
      .map(templateOf)
      .sort((a, b) => a.params - b.params);
  }

  /**
   * The document's path template a request falls under, as the server's router picks it: the most
   * literal one of the method's operations (`GET /api/dictionaries/dict_events` is `{name}` when the
   * literal path has only POST); without a method, the most literal one of any.
   */
  templateOf(requestPath: string, method?: string): string | undefined {
    const matching = this.templates.filter((t) => t.pattern.test(requestPath));
    const verb = method?.toLowerCase();
    return (matching.find((t) => verb && this.document.paths[t.template]?.[verb]) ?? matching[0])?.template;
  }

  /** What is wrong with one answer against the document; empty when nothing. */
  problems(answer: Answer): string[] {
    const key = `${answer.method} ${answer.path} → ${answer.status}`;
    const template = this.templateOf(answer.path, answer.method);
    const op = template ? this.document.paths[template]?.[answer.method.toLowerCase()] : undefined;
    if (!template || !op)
      return [
        `${key}: no such operation in the document${template ? ` (${template} has ${Object.keys(this.document.paths[template] ?? {}).join(', ')})` : ''}`,
      ];
    const declared = op.responses?.[String(answer.status)];
    if (!declared) return [`${key}: status not declared on ${answer.method} ${template} (declared: ${Object.keys(op.responses ?? {}).join(', ')})`];
    if (!declared.content || answer.status === 204 || (answer.status >= 300 && answer.status < 400)) return [];
    const media = declared.content[answer.contentType];
    if (!media) return [`${key}: content type ${answer.contentType || '(none)'} not declared (declared: ${Object.keys(declared.content).join(', ')})`];
    if (answer.body === undefined || !media.schema) return [];
    const validate = this.validator(media.schema);
    if (validate(answer.body)) return [];
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    return [`${key}: body does not match ${answer.method} ${template} ${answer.status}: ${errors.join('; ')}`];
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

/** The API document the server serves now. */
export async function servedContract(request: APIRequestContext): Promise<ApiContract> {
  const served = await request.get('/api/docs');
  expect(served.status()).toBe(200);
  return new ApiContract((await served.json()) as ApiDocument);
}

/** Paths the document leaves out on purpose (schema.hide on the server). */
const HIDDEN = [/^\/api\/health$/, /^\/api\/docs$/, /^\/sandbox\//];

const isJson = (contentType: string) => contentType === 'application/json' || contentType.endsWith('+json');

/** The answer of a browser response, its JSON body read (a redirect has none). */
async function answerOf(response: Response): Promise<Answer> {
  const url = new URL(response.url());
  const status = response.status();
  const contentType = (response.headers()['content-type'] ?? '').split(';')[0]!.trim();
  const answer: Answer = { method: response.request().method(), path: url.pathname, status, contentType };
  if (isJson(contentType) && status !== 204 && (status < 300 || status >= 400)) {
    const text = (await response.body()).toString('utf8');
    try {
      answer.body = JSON.parse(text) as unknown;
    } catch {
      answer.body = text;
    }
  }
  return answer;
}

/**
 * Records every answer the page gets from the app's own API (its fetch and XHR calls to a path under
 * /api/ or a path of the document, like /login and /logout) and checks it against the document.
 * `done()` waits for every call already sent to be answered (or to fail) and its body read, and
 * gives what was checked (answers per operation and status) and what was wrong.
 */
export function recordApiAnswers(page: Page, contract: ApiContract, origin: string) {
  const pending: Promise<void>[] = [];
  const problems: string[] = [];
  const operations = new Map<string, number>();
  let checked = 0;
  const check = async (response: Response | null) => {
    // No answer (the call failed or the page went on) or its body dropped by a navigation: nothing to check.
    const answer = response && (await answerOf(response).catch(() => null));
    if (!answer) return;
    checked++;
    const key = `${answer.method} ${contract.templateOf(answer.path, answer.method) ?? answer.path} ${answer.status}`;
    operations.set(key, (operations.get(key) ?? 0) + 1);
    problems.push(...contract.problems(answer));
  };
  page.on('request', (request) => {
    if (!['fetch', 'xhr'].includes(request.resourceType())) return;
    const url = new URL(request.url());
    if (url.origin !== origin || HIDDEN.some((h) => h.test(url.pathname))) return;
    if (!url.pathname.startsWith('/api/') && !contract.templateOf(url.pathname)) return;
    pending.push(request.response().then(check, () => undefined));
  });
  return {
    async done() {
      // A check may end after more calls were sent: wait until none is left.
      for (let seen = -1; seen !== pending.length;) {
        seen = pending.length;
        await Promise.all(pending);
      }
      return { checked, operations: Object.fromEntries([...operations].sort(([a], [b]) => a.localeCompare(b))), problems };
    },
  };
}

/** Writes what a journey checked under its key in e2e/output/api-contract.json (other keys kept). */
export function writeChecked(key: string, record: { checked: number; operations: Record<string, number>; problems: string[] }): void {
  const file = path.join(outputDir, 'api-contract.json');
  fs.mkdirSync(outputDir, { recursive: true });
  const all = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  all[key] = { at: new Date().toISOString(), ...record };
  fs.writeFileSync(file, JSON.stringify(all, null, 2));
}
