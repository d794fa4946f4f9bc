import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('hash with argon2id and verify', async () => {
    const h = await hashPassword('секрет-123');
    expect(h).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(h, 'секрет-123')).toBe(true);
    expect(await verifyPassword(h, 'другой')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(await verifyPassword(null, 'x')).toBe(false);
  });

  it("checks the old cabinet's bcrypt hashes as PHP writes them, and asks for ours after", async () => {
    // PHP's own password_verify example.
    const php = '$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a';
    expect(await verifyPassword(php, 'rasmuslerdorf')).toBe(true);
    expect(await verifyPassword(php, 'rasmus')).toBe(false);
    expect(await verifyPassword(php.replace('$2y$', '$2a$'), 'rasmuslerdorf')).toBe(true);
    expect(await verifyPassword('$2y$10$short', 'rasmuslerdorf')).toBe(false);
    expect(needsRehash(php)).toBe(true);
    expect(needsRehash(await hashPassword('p'))).toBe(false);
  });

  it('a burst larger than the queue is refused at once with 503, the rest are checked', async () => {
    const h = await hashPassword('p');
    const results = await Promise.allSettled(Array.from({ length: 60 }, () => verifyPassword(h, 'p')));
    const refused = results.filter((r) => r.status === 'rejected');
    const checked = results.filter((r) => r.status === 'fulfilled');
    expect(checked.length).toBeGreaterThanOrEqual(33);
    expect(refused.length).toBeGreaterThan(0);
    expect((refused[0] as PromiseRejectedResult).reason.statusCode).toBe(503);
    expect(checked.every((r) => (r as PromiseFulfilledResult<boolean>).value)).toBe(true);
  });
});
