import { expect, test } from '../support/test.ts';
import { clientWithEntry, login, newWebinar, operatorHeaders } from '../support/session';
import { shot } from '../support/screens';
import { PHONE, WIDE } from '../support/ui';

// A new notification pops up whole (issue 30): as wide as a notice is when no modal is open, never cut
// at the top or bottom, no word split. The title is long on purpose.
const TITLE = 'Педагогический вебинар «Современные образовательные технологии в условиях реализации ФГОС»';

for (const size of [WIDE, PHONE]) {
  test(`a new notification pops up whole at ${size.width} px`, async ({ page, request }) => {
    await page.setViewportSize(size);
    const client = await clientWithEntry(request, `popup${size.width}`);
    const webinar = await newWebinar(request, await operatorHeaders(request), { title: TITLE, price: 4500, daysAhead: 9 });
    // The cabinet takes its starting point from its first poll; a notification after it pops up.
    const firstPoll = page.waitForResponse((r) => r.url().includes('/api/notification/new') && r.ok());
    await login(page, client.email, client.password);
    await firstPoll;
    const entry = await request.post('/api/entry', { headers: client.headers, data: { service_id: webinar, pay_type: 3, is_extramural: 1 } });
    expect(entry.status(), await entry.text()).toBe(201);

    // The notice quotes the title (its inner quotes become „…“), so it is found by its words.
    const popup = page.locator('.mantine-Notification-root', { hasText: 'Современные образовательные технологии в условиях реализации ФГОС' });
    // Hovering keeps it open (Mantine pauses its 2 s close while the pointer is on it).
    await popup.hover({ timeout: 30_000 });
    const box = await popup.evaluate((el) => {
      const text = el.querySelector('.mantine-Notification-description')!;
      return { width: el.getBoundingClientRect().width, cut: el.scrollHeight - el.clientHeight, textWidth: text.getBoundingClientRect().width };
    });
    expect(box.cut, 'the text is cut').toBeLessThanOrEqual(1);
    expect(box.width).toBeGreaterThanOrEqual(Math.min(400, size.width - 40));
    // «Педагогический» fits on a line: the words have room.
    expect(box.textWidth).toBeGreaterThan(200);
    await shot(page, `notification-popup-${size.width}`);
  });
}
