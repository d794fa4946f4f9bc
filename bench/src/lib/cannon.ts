import os from 'node:os';
import autocannon from 'autocannon';
import type { CpuUsage } from './cpu.ts';

export interface Scenario {
  /** Stable id (api-get, entries-user, ...): pgbench.ts finds the HTTP figures of a scenario by it. */
  key: string;
  name: string;
  method: 'GET' | 'POST';
  path: string;
  connections: number;
  duration: number;
  /** Headers, body and (when it varies) path of the next request (called once per request). */
  next: () => { headers?: Record<string, string>; body?: string; path?: string };
}

export interface ScenarioResult {
  key: string;
  scenario: string;
  method: string;
  path: string;
  connections: number;
  duration_s: number;
  responses: number;
  /** Completed responses per second over the whole run. */
  rps: number;
  /** Latency in ms from every response (not autocannon's 1 ms-bucket histogram). */
  latency_ms: { avg: number; p50: number; p90: number; p95: number; p97_5: number; p99: number; max: number };
  /** autocannon's own figures, for reference. */
  autocannon: { rps_avg: number; p50: number; p90: number; p97_5: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  status_codes: Record<string, number>;
  /** 1-minute load average of the machine when the scenario started: other work on it skews figures. */
  loadavg_at_start: number;
  /** CPU use while the scenario ran (shared by the two halves of the mixed scenario). */
  cpu?: CpuUsage | null;
}

/** Runs one autocannon scenario against baseUrl and records every response time. */
export function runScenario(baseUrl: string, s: Scenario): Promise<ScenarioResult> {
  const samples: number[] = [];
  const codes: Record<string, number> = {};
  const loadavg = os.loadavg()[0];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: s.connections,
        duration: s.duration,
        timeout: 30,
        requests: [
          {
            method: s.method,
            path: s.path,
            setupRequest: (req) => {
              const { headers, body, path } = s.next();
              return { ...req, headers: { ...req.headers, ...headers }, ...(body === undefined ? {} : { body }), ...(path === undefined ? {} : { path }) };
            },
          },
        ],
      },
      (err, result) => {
        if (err) return reject(err);
        const sorted = Float64Array.from(samples).sort();
        const pct = (p: number) => round(sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0);
        const sum = samples.reduce((a, b) => a + b, 0);
        resolve({
          key: s.key,
          scenario: s.name,
          method: s.method,
          path: s.path,
          connections: s.connections,
          duration_s: result.duration,
          responses: samples.length,
          rps: round(samples.length / result.duration),
          latency_ms: {
            avg: round(samples.length ? sum / samples.length : 0),
            p50: pct(50),
            p90: pct(90),
            p95: pct(95),
            p97_5: pct(97.5),
            p99: pct(99),
            max: round(sorted.at(-1) ?? 0),
          },
          autocannon: {
            rps_avg: result.requests.average,
            p50: result.latency.p50,
            p90: result.latency.p90,
            p97_5: result.latency.p97_5,
            p99: result.latency.p99,
          },
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          status_codes: codes,
          loadavg_at_start: round(loadavg),
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      samples.push(responseTime);
      codes[statusCode] = (codes[statusCode] ?? 0) + 1;
    });
  });
}

const round = (n: number) => Math.round(n * 100) / 100;
