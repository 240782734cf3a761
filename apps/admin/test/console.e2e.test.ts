import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createOperator } from '@hallmark/db';
import {
  type CheckedReport,
  checkReport,
  HallmarkAdminClient,
  HallmarkApiError,
  HallmarkClient,
  WatermarkJobFailedError,
  watermarkFile,
} from '@hallmark/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../../api/test/support/photos.ts';
import { startReceiver } from '../../api/test/support/webhook-receiver.ts';
import { launchChromium, openContext } from './support/browser.ts';
import { type RunningConsole, startConsole } from './support/console.ts';
import { withoutManifest, withPatch } from './support/copies.ts';
import { screenshot } from './support/screenshots.ts';

const photo = readFileSync(join(import.meta.dirname, '../../../fixtures/c2pa/no_manifest.jpg'));
const photos = join(import.meta.dirname, '../../../fixtures/photos');
const ADMIN = { email: 'ops@example.com', password: 'correct horse battery staple' };
const VIEWER = { email: 'viewer@example.com', password: 'viewer password 42' };

let running: RunningConsole;
let browser: Browser;

async function signIn(context: BrowserContext, who: typeof ADMIN): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${running.url}/`);
  // Not signed in: the console sends the browser to its sign-in page.
  await page.waitForURL(`${running.url}/sign-in`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${running.url}/`);
  await expect.poll(() => page.getByTestId('operator').textContent()).toContain(who.email);
  return page;
}

/** Fills the public form as a requester does and lands on the private status page. */
async function requestKey(page: Page, company: string): Promise<string> {
  await page.goto(`${running.url}/request-key`);
  await page.getByLabel('Company').fill(company);
  await page.getByLabel('Purpose').fill('Marking the product photos of our catalogue.');
  await page.getByLabel('Contact name').fill('Grace Hopper');
  await page.getByLabel('Contact email').fill('grace@example.com');
  await page.getByRole('button', { name: 'Send the request' }).click();
  await page.waitForURL(/\/request-key\/[0-9a-f-]{36}\?token=/);
  return page.url();
}

/**
 * The link in the newest approval mail to the contact of the request of `company`: the console's
 * status page (the mail names no company, so the request's id finds it).
 */
async function mailedLink(console: RunningConsole, company: string): Promise<string> {
  const request = await console.service.prisma.keyRequest.findFirstOrThrow({
    where: { companyName: company },
  });
  const outbox = join(console.service.env.HALLMARK_DATA_DIR ?? '', 'outbox');
  const names = (await readdir(outbox)).sort();
  const mails = await Promise.all(names.map((name) => readFile(join(outbox, name), 'utf8')));
  const pattern = new RegExp(`${console.url}/request-key/${request.id}\\?token=[A-Za-z0-9_-]{43}`);
  const link = mails
    .filter((mail) => mail.includes('Your Hallmark API key is ready'))
    .map((mail) => pattern.exec(mail)?.[0])
    .findLast((found) => found !== undefined);
  if (link === undefined) throw new Error(`no approval mail links the request of ${company}`);
  return link;
}

function requestCard(page: Page, company: string) {
  return page.getByTestId('key-request').filter({ hasText: company });
}

beforeAll(async () => {
  running = await startConsole();
  await createOperator(running.service.prisma, ADMIN.email, 'admin', ADMIN.password);
  await createOperator(running.service.prisma, VIEWER.email, 'viewer', VIEWER.password);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await running?.close();
});

describe('the admin console in Chromium', () => {
  it('takes a key request from the public page to a revoked key, with an audit trail', async () => {
    // A requester: the form is checked by the API, each problem shown beside its field.
    const requester = await openContext(browser);
    const form = await requester.newPage();
    await form.goto(`${running.url}/request-key`);
    await form.getByLabel('Contact email').fill('not an email');
    await form.getByRole('button', { name: 'Send the request' }).click();
    const requestForm = form.getByRole('form', { name: 'Request an API key' });
    await expect
      .poll(() => requestForm.getByRole('alert').textContent())
      .toBe('Please correct the marked fields.');
    const companyField = form.getByLabel('Company');
    await expect.poll(() => companyField.getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(() => form.getByLabel('Contact email').getAttribute('aria-invalid'))
      .toBe('true');
    await screenshot(form, 'request-key-errors');

    const statusLink = await requestKey(form, 'Acme Photo Ltd');
    expect(await form.getByTestId('request-status').textContent()).toBe('pending');
    await screenshot(form, 'request-key-status');

    // An operator signs in, sees the request and approves it.
    const operator = await openContext(browser);
    const overview = await signIn(operator, ADMIN);
    expect(await overview.getByTestId('readiness').textContent()).toBe('Ready');
    const requests = await operator.newPage();
    await requests.goto(`${running.url}/key-requests`);
    const card = requestCard(requests, 'Acme Photo Ltd');
    await screenshot(requests, 'key-requests');
    await card.getByRole('button', { name: 'Approve' }).click();
    // The page is rendered afresh: the request shows its decision and who made it.
    await expect.poll(() => card.locator('.badge').first().textContent()).toBe('approved');
    expect(await card.textContent()).toContain(`by ${ADMIN.email}`);

    // The requester's status link (a mail scanner may open it too) shows a button, not the key;
    // the button shows it once, and a later visit shows its prefix only.
    const status = await requester.newPage();
    await status.goto(statusLink);
    expect(await status.getByTestId('request-status').textContent()).toBe('approved');
    await status.reload();
    expect(await status.getByTestId('secret').count()).toBe(0);
    await status.getByRole('button', { name: 'Show my key' }).click();
    await status.getByTestId('secret').waitFor();
    const apiKey = (await status.getByTestId('secret').textContent()) ?? '';
    expect(apiKey).toMatch(/^hm_[a-z0-9]{8}_/);
    await status.reload();
    expect(await status.getByTestId('secret').count()).toBe(0);
    expect(await status.getByRole('button', { name: 'Show my key' }).count()).toBe(0);
    expect(await status.content()).toContain(apiKey.slice(0, 11));

    // The key works with the SDK: a photo marked with both techniques, an NFT and IPFS, its
    // events delivered to the key's webhook endpoint.
    const client = new HallmarkClient({ baseUrl: running.service.baseUrl, token: apiKey });
    const receiver = await startReceiver();
    const endpoint = await client.createWebhookEndpoint({ url: receiver.url });
    const marked = await watermarkFile(
      client,
      photo,
      {
        watermarkType: ['invisible', 'c2pa'],
        data: { author: 'Grace Hopper' },
        mintNft: true,
        storeIpfs: true,
      },
      { contentType: 'image/jpeg', fileName: 'photo.jpg' },
    );
    expect(marked.job.status).toBe('success');

    // The job is listed under its key, with its steps, a before/after preview and a download.
    const jobs = await operator.newPage();
    const prefix = apiKey.slice(0, 11);
    await jobs.goto(`${running.url}/jobs?key=${prefix}`);
    const rows = jobs.getByTestId('job-row');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('success');
    await screenshot(jobs, 'jobs');
    await rows.first().getByRole('link').click();
    await jobs.waitForURL(`${running.url}/jobs/${marked.job.requestId}`);
    expect(await jobs.getByTestId('job-step').count()).toBeGreaterThanOrEqual(4);
    for (const alt of ['The upload, before marking', 'The output, watermarked']) {
      const image = jobs.getByAltText(alt);
      await expect
        .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
    }
    await screenshot(jobs, 'job-detail');

    // A recording is signed (c2pa only) and its page plays it rather than showing a picture.
    const recording = await watermarkFile(
      client,
      join(import.meta.dirname, '../../../fixtures/media/sample.wav'),
      { watermarkType: ['c2pa'] },
    );
    await jobs.goto(`${running.url}/jobs/${recording.job.requestId}`);
    for (const label of ['The upload, before marking', 'The output, watermarked']) {
      const player = jobs.locator(`audio[aria-label="${label}"]`);
      await expect
        .poll(() => player.evaluate((element) => (element as HTMLAudioElement).duration))
        .toBeGreaterThan(0);
    }

    const records = await operator.newPage();
    await records.goto(`${running.url}/nfts`);
    expect(await records.content()).toContain(marked.job.requestId.slice(0, 8));
    await screenshot(records, 'nfts');
    // Without a marketplace, "open" is the token's image on the IPFS gateway: the marked file.
    const token = records.getByRole('row').filter({ hasText: marked.job.requestId.slice(0, 8) });
    const image = records.waitForResponse((response) => response.request().isNavigationRequest());
    await token.getByRole('link', { name: 'open' }).click();
    const opened = await image;
    expect(opened.status()).toBe(200);
    expect(Buffer.compare(await opened.body(), Buffer.from(await marked.download()))).toBe(0);
    await records.goto(`${running.url}/ipfs`);
    expect(await records.content()).toContain(marked.job.requestId.slice(0, 8));
    await screenshot(records, 'ipfs');

    // The endpoint and its deliveries, as the worker made them. The receiver sees a request before
    // the worker records its outcome, so wait for the recorded outcomes.
    await expect
      .poll(async () => {
        const settled = await running.service.prisma.webhookDelivery.findMany({
          where: { endpointId: endpoint.id, status: 'succeeded' },
          select: { event: { select: { type: true } } },
        });
        return settled.map(({ event }) => event.type);
      })
      .toEqual(expect.arrayContaining(['watermark.succeeded', 'nft.minted']));
    await records.goto(`${running.url}/webhooks`);
    const listed = records.getByTestId('webhook-endpoint').filter({ hasText: receiver.url });
    expect(await listed.textContent()).toContain(prefix);
    await screenshot(records, 'webhooks');
    await listed.getByRole('link').click();
    await records.waitForURL(`${running.url}/webhooks/${endpoint.id}`);
    const deliveries = await records.getByTestId('webhook-delivery').allTextContents();
    expect(deliveries.find((row) => row.includes('watermark.succeeded'))).toContain('succeeded');
    expect(deliveries.find((row) => row.includes('nft.minted'))).toContain('200');
    await screenshot(records, 'webhook-deliveries');
    await receiver.close();

    // Revoked in the console, the key is refused by the API.
    const keys = await operator.newPage();
    await keys.goto(`${running.url}/api-keys`);
    const row = keys.getByTestId(`key-${prefix}`);
    await row.getByText('Change').click();
    await screenshot(keys, 'api-keys');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.getByTestId('revoked-at').textContent()).toMatch(/UTC$/);
    const refused = await client
      .getWatermarkJob(marked.job.requestId)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HallmarkApiError);
    expect((refused as HallmarkApiError).status).toBe(401);

    // The audit log shows both changes, by whom.
    const audit = await operator.newPage();
    await audit.goto(`${running.url}/audit`);
    const entries = await audit.getByTestId('audit-entry').allTextContents();
    expect(entries.find((entry) => entry.includes('key_request.approve'))).toContain(ADMIN.email);
    expect(entries.find((entry) => entry.includes('api_key.revoke'))).toContain(prefix);
    await screenshot(audit, 'audit');
    await overview.reload();
    await screenshot(overview, 'overview');
    await Promise.all([requester.close(), operator.close()]);
  }, 240_000);

  it('hands the key over: made on approval, collected once by a POST with a copy button, the API address and a first call; an uncollected key is re-issued', async () => {
    const requester = await openContext(browser);
    await requestKey(await requester.newPage(), 'Handoff Photo GmbH');
    const operator = await openContext(browser);
    const requests = await signIn(operator, ADMIN);
    await requests.goto(`${running.url}/key-requests`);
    await requestCard(requests, 'Handoff Photo GmbH')
      .getByRole('button', { name: 'Approve' })
      .click();
    const card = requestCard(requests, 'Handoff Photo GmbH');
    await expect.poll(() => card.getByTestId('key-collected').textContent()).toBe('not yet');

    // Approval made the key: listed at once, not yet collected.
    const keys = await operator.newPage();
    await keys.goto(`${running.url}/api-keys`);
    const keyRow = keys.getByRole('row').filter({ hasText: 'Handoff Photo GmbH' });
    expect(await keyRow.getByTestId('collection').textContent()).toContain('not yet collected');
    const prefix = (await keyRow.locator('code').first().textContent()) ?? '';
    expect(prefix).toMatch(/^hm_[a-z2-7]{8}$/);

    // The approval mail repeats the link to the console's page; a mail scanner opens it (with no
    // scripts) again and again: the key stays waiting.
    const link = await mailedLink(running, 'Handoff Photo GmbH');
    const scanner = await openContext(browser, { javaScriptEnabled: false });
    const scanned = await scanner.newPage();
    for (let visit = 0; visit < 2; visit++) {
      await scanned.goto(link);
      expect(await scanned.getByTestId('request-status').textContent()).toBe('approved');
      expect(await scanned.getByTestId('secret').count()).toBe(0);
    }
    await keys.reload();
    expect(await keyRow.getByTestId('collection').textContent()).toContain('not yet collected');

    // The requester: two tabs on the page; the first collects with the button, sees the key once
    // with a copy button, the API's address and a first call.
    await requester.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: running.url,
    });
    const [status, stale] = [await requester.newPage(), await requester.newPage()];
    await Promise.all([status.goto(link), stale.goto(link)]);
    await status.getByRole('button', { name: 'Show my key' }).click();
    await status.getByTestId('secret').waitFor();
    const apiKey = (await status.getByTestId('secret').textContent()) ?? '';
    expect(apiKey.startsWith(`${prefix}_`)).toBe(true);
    expect(await status.getByTestId('api-url').textContent()).toBe(running.service.baseUrl);
    const curl = (await status.getByTestId('first-curl').textContent()) ?? '';
    expect(curl).toContain(`'${running.service.baseUrl}/claim/file-upload-link'`);
    expect(curl).toContain(`Authorization: Bearer ${apiKey}`);
    await status.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect.poll(() => status.getByRole('button', { name: 'Copied' }).count()).toBe(1);
    expect(await status.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
    await screenshot(status, 'request-key-collected');
    // The first call, as shown, works.
    const claimed = await fetch(`${running.service.baseUrl}/claim/file-upload-link`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ contentType: 'image/jpeg', fileName: 'photo.jpg' }),
    });
    expect(claimed.status).toBe(201);
    // The stale tab's button is refused: the key was collected; a fresh visit offers no button.
    await stale.getByRole('button', { name: 'Show my key' }).click();
    const refusal = stale.getByRole('form', { name: 'Collect the key' }).getByRole('alert');
    await expect.poll(() => refusal.textContent()).toMatch(/collected already/);
    expect(await stale.getByTestId('secret').count()).toBe(0);
    await status.reload();
    expect(await status.getByRole('button', { name: 'Show my key' }).count()).toBe(0);
    expect(await status.content()).toContain(prefix);
    await keys.reload();
    expect(await keyRow.getByTestId('collection').textContent()).not.toContain('not yet');

    // Another approved request: its key re-issued before collection. The old one is revoked, the
    // new one waits at the same link, and a browser without scripts collects it with the form.
    await requestKey(await requester.newPage(), 'Reissue Pictures Ltd');
    await requests.goto(`${running.url}/key-requests`);
    await requestCard(requests, 'Reissue Pictures Ltd')
      .getByRole('button', { name: 'Approve' })
      .click();
    await expect
      .poll(() =>
        requestCard(requests, 'Reissue Pictures Ltd').getByTestId('key-collected').count(),
      )
      .toBe(1);
    await keys.reload();
    const waiting = keys.getByRole('row').filter({ hasText: 'Reissue Pictures Ltd' });
    const oldPrefix = (await waiting.locator('code').first().textContent()) ?? '';
    await waiting.getByRole('button', { name: 'Re-issue' }).click();
    const oldRow = keys.getByTestId(`key-${oldPrefix}`);
    await expect.poll(() => oldRow.getByTestId('revoked-at').textContent()).toMatch(/UTC$/);
    const fresh = keys
      .getByRole('row')
      .filter({ hasText: 'Reissue Pictures Ltd' })
      .filter({ hasText: 'not yet collected' });
    const newPrefix = (await fresh.locator('code').first().textContent()) ?? '';
    expect(newPrefix).toMatch(/^hm_/);
    expect(newPrefix).not.toBe(oldPrefix);
    await screenshot(keys, 'api-keys-reissued');
    const noScripts = await scanner.newPage();
    await noScripts.goto(await mailedLink(running, 'Reissue Pictures Ltd'));
    await noScripts.getByRole('button', { name: 'Show my key' }).click();
    await noScripts.getByTestId('secret').waitFor();
    expect((await noScripts.getByTestId('secret').textContent())?.startsWith(`${newPrefix}_`)).toBe(
      true,
    );
    expect(await noScripts.getByTestId('first-curl').textContent()).toContain(newPrefix);
    // Without scripts there is nothing a copy button could do: none is shown.
    expect(await noScripts.getByRole('button', { name: 'Copy', exact: true }).count()).toBe(0);

    const audit = await operator.newPage();
    await audit.goto(`${running.url}/audit`);
    const entries = await audit.getByTestId('audit-entry').allTextContents();
    expect(entries.find((entry) => entry.includes('api_key.reissue'))).toContain(oldPrefix);
    await Promise.all([requester.close(), operator.close(), scanner.close()]);
  }, 240_000);

  it('an admin disables an operator, whose open session ends, and resets their password', async () => {
    const member = { email: 'member@example.com', password: 'member password 1' };
    await createOperator(running.service.prisma, member.email, 'viewer', member.password);
    const memberContext = await openContext(browser);
    const memberPage = await signIn(memberContext, member);
    const adminContext = await openContext(browser);
    const page = await signIn(adminContext, ADMIN);
    await page.goto(`${running.url}/operators`);
    const row = page.getByTestId(`operator-${member.email}`);
    expect(await row.getByTestId('state').textContent()).toBe('enabled');
    // The row's choices fold away; a page rendered afresh may keep them open.
    const manage = async () => {
      if ((await row.locator('details').getAttribute('open')) === null) {
        await row.getByText('Manage', { exact: true }).click();
      }
    };
    await manage();
    await row.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => row.getByTestId('state').textContent()).toBe('disabled');
    await screenshot(page, 'operators');
    // The member's open page now sends them to sign in, and their password no longer works.
    await memberPage.reload();
    await memberPage.waitForURL(`${running.url}/sign-in`);
    await manage();
    await row.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => row.getByTestId('state').textContent()).toBe('enabled');
    await manage();
    await row.getByRole('button', { name: 'Reset password' }).click();
    await page.getByTestId('secret').waitFor();
    const password = (await page.getByTestId('secret').textContent()) ?? '';
    expect(password.length).toBeGreaterThanOrEqual(20);
    await signIn(await openContext(browser), { email: member.email, password });
    await Promise.all([memberContext.close(), adminContext.close()]);
  }, 120_000);

  it('lets a viewer look but the API refuses the viewer a change', async () => {
    const requester = await openContext(browser);
    await requestKey(await requester.newPage(), 'Viewer Test GmbH');
    const viewer = await openContext(browser);
    const page = await signIn(viewer, VIEWER);
    await page.goto(`${running.url}/key-requests?status=pending`);
    const card = requestCard(page, 'Viewer Test GmbH');
    expect(await card.count()).toBe(1);
    // The console offers no change to a viewer...
    expect(await card.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    // ...and the API refuses one sent with the viewer's own session and CSRF token.
    // The console's own cookie: `__Host-` (Secure, this host only, path /), httpOnly, strict.
    const [cookie] = await viewer.cookies(running.url);
    expect(cookie).toMatchObject({
      name: '__Host-hallmark_session',
      secure: true,
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
    });
    const session = cookie?.value ?? '';
    const asViewer = new HallmarkAdminClient({
      baseUrl: running.service.baseUrl,
      fetch: (url, init) =>
        fetch(url, {
          ...init,
          headers: { ...init.headers, cookie: `hallmark_session=${session}` },
        }),
    });
    const { csrfToken } = await asViewer.getSession();
    const pending = await asViewer.listKeyRequests({ status: 'pending' });
    const target = pending.items.find((item) => item.companyName === 'Viewer Test GmbH');
    const refusal = await asViewer
      .approveKeyRequest(target?.requestId ?? '', { csrfToken })
      .catch((error: unknown) => error);
    expect((refusal as HallmarkApiError).status).toBe(403);
    await page.reload();
    expect(await requestCard(page, 'Viewer Test GmbH').textContent()).toContain('pending');
    await Promise.all([requester.close(), viewer.close()]);
  });

  it('answers with a policy of a fresh nonce per page that its own scripts keep to, and cannot be framed', async () => {
    const context = await openContext(browser);
    const page = await context.newPage();
    await page.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { violations: seen });
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    const first = (await page.goto(`${running.url}/sign-in`))?.headers() ?? {};
    const policy = first['content-security-policy'] ?? '';
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]{22}=='/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(first['x-frame-options']).toBe('DENY');
    expect(first['x-content-type-options']).toBe('nosniff');
    expect(first['referrer-policy']).toBe('no-referrer');
    // Next.js's scripts ran under the policy: the page is hydrated, and nothing was refused.
    await expect
      .poll(() => page.evaluate(() => typeof (window as { next?: unknown }).next))
      .toBe('object');
    expect(await page.evaluate(() => (window as { violations?: string[] }).violations)).toEqual([]);
    const again = (await page.goto(`${running.url}/request-key`))?.headers() ?? {};
    expect(again['content-security-policy']).toMatch(/'nonce-/);
    expect(again['content-security-policy']).not.toBe(policy);
    await context.close();
  });

  it('changes nothing on a stale CSRF token or an ended session', async () => {
    const requester = await openContext(browser);
    await requestKey(await requester.newPage(), 'Stale Token Inc');
    const operator = await openContext(browser);
    const page = await signIn(operator, ADMIN);
    await page.goto(`${running.url}/key-requests?status=pending`);
    const card = requestCard(page, 'Stale Token Inc');

    // A form carrying another CSRF token (a stale page, a forged post) is refused by the API.
    await card
      .locator('input[name="csrf"]')
      .first()
      .evaluate((input) => {
        (input as HTMLInputElement).value = 'stale-token';
      });
    await card.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => card.getByRole('alert').first().textContent()).toMatch(/csrf/i);
    await page.reload();
    expect(await requestCard(page, 'Stale Token Inc').textContent()).toContain('pending');

    // Rejecting needs a reason: the API's message shows beside the field.
    const reject = requestCard(page, 'Stale Token Inc').getByRole('form', { name: 'Reject' });
    await reject.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => reject.getByLabel('Reason').getAttribute('aria-invalid')).toBe('true');

    // The session ends (expired on the server): the next page asks to sign in again.
    await running.service.prisma.operatorSession.updateMany({ data: { expiresAt: new Date(0) } });
    await page.goto(`${running.url}/api-keys`);
    await page.waitForURL(`${running.url}/sign-in`);
    await Promise.all([requester.close(), operator.close()]);
  });

  it('creates a key shown once, and names a malformed wallet or limit beside its field', async () => {
    const operator = await openContext(browser);
    const page = await signIn(operator, ADMIN);
    await page.goto(`${running.url}/api-keys`);
    const create = page.getByRole('form', { name: 'Create a key' });
    await create.getByLabel('Name (company or team)').fill('Console Test Team');
    await create.getByRole('button', { name: 'Create a key' }).click();
    const secret = (await create.getByTestId('secret').textContent()) ?? '';
    expect(secret).toMatch(/^hm_[a-z0-9]{8}_/);
    // The key works at once; the list shows only its prefix.
    const client = new HallmarkClient({ baseUrl: running.service.baseUrl, token: secret });
    expect((await client.getReadiness()).status).toBe('ready');
    // Shown once: the next rendering of the page has only its prefix.
    await page.reload();
    const row = page.getByTestId(`key-${secret.slice(0, 11)}`);
    expect(await row.count()).toBe(1);
    expect(await page.content()).not.toContain(secret.slice(12));

    await row.getByText('Change').click();
    const wallet = row.getByRole('form', { name: 'Wallet' });
    await wallet.getByLabel(/Wallet/).fill('0x1234');
    await wallet.getByRole('button', { name: 'Save wallet' }).click();
    await expect.poll(() => wallet.getByLabel(/Wallet/).getAttribute('aria-invalid')).toBe('true');
    expect(await wallet.locator('.field-error').textContent()).toMatch(/address/i);

    const limit = row.getByRole('form', { name: 'Rate limit' });
    await limit.getByLabel(/Requests a minute/).fill('many');
    await limit.getByRole('button', { name: 'Save limit' }).click();
    await expect
      .poll(() => limit.getByLabel(/Requests a minute/).getAttribute('aria-invalid'))
      .toBe('true');
    await limit.getByLabel(/Requests a minute/).fill('120');
    await limit.getByRole('button', { name: 'Save limit' }).click();
    await expect.poll(() => row.locator('td').nth(6).textContent()).toBe('120');
    await operator.close();
  });

  it('offers Retry only for a failure another run may get past, and runs that job again', async () => {
    const { client } = await running.service.newClient();
    // Too small for the invisible mark: the picture itself fails the job, every time.
    const small = await watermarkFile(
      client,
      pngImage,
      { watermarkType: ['invisible'] },
      { contentType: 'image/png', fileName: 'small.png' },
    ).catch((error: unknown) => error);
    expect(small).toBeInstanceOf(WatermarkJobFailedError);
    const tooSmall = (small as WatermarkJobFailedError).job;
    expect(tooSmall.error?.code).toBe('image_too_small');
    // A job whose IPFS node was away: its cause may pass.
    const done = await watermarkFile(
      client,
      photo,
      { watermarkType: ['c2pa'] },
      { contentType: 'image/jpeg', fileName: 'photo.jpg' },
    );
    await running.service.prisma.watermarkJob.update({
      where: { id: done.job.requestId },
      data: {
        status: 'failed',
        errorCode: 'ipfs_unreachable',
        errorMessage: 'The IPFS node could not be reached after every retry.',
        finishedAt: new Date(),
      },
    });

    const page = await signIn(await openContext(browser), ADMIN);
    await page.goto(`${running.url}/jobs/${tooSmall.requestId}`);
    expect(await page.locator('h1 .badge').textContent()).toBe('failed');
    expect(await page.content()).toContain('image_too_small');
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(await page.getByTestId('not-retryable').textContent()).toMatch(/picture itself/);
    await screenshot(page, 'job-not-retryable');

    await page.goto(`${running.url}/jobs/${done.job.requestId}`);
    expect(await page.getByTestId('not-retryable').count()).toBe(0);
    await page.getByRole('button', { name: 'Retry' }).click();
    // The page is rendered afresh: the job is no longer failed, and Retry is gone with it.
    await expect.poll(() => page.locator('h1 .badge').textContent()).not.toBe('failed');
    // The worker runs it again, to the end.
    await expect
      .poll(async () => (await client.getWatermarkJob(done.job.requestId)).status)
      .toBe('success');
    await page.reload();
    expect(await page.locator('h1 .badge').textContent()).toBe('success');
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await page.context().close();
  }, 120_000);

  it('counts the pending key requests on the overview, and the overdue among them', async () => {
    const requester = await openContext(browser);
    await requestKey(await requester.newPage(), 'Overview Count Ltd');
    const page = await signIn(await openContext(browser), ADMIN);
    const counted = () =>
      Promise.all([
        running.service.prisma.keyRequest.count({ where: { status: 'pending' } }),
        running.service.prisma.keyRequest.count({
          where: { status: 'pending', dueAt: { lt: new Date() } },
        }),
      ]);
    const [pending, overdue] = await counted();
    expect(pending).toBeGreaterThan(0);
    expect(overdue).toBe(0);
    expect(await page.getByTestId('pending-key-requests').textContent()).toBe(String(pending));
    expect(await page.getByTestId('overdue-key-requests').textContent()).toBe('0');
    // Its answer was due yesterday.
    await running.service.prisma.keyRequest.updateMany({
      where: { companyName: 'Overview Count Ltd' },
      data: { dueAt: new Date(Date.now() - 86_400_000) },
    });
    await page.reload();
    const [stillPending, late] = await counted();
    expect(late).toBe(1);
    expect(await page.getByTestId('pending-key-requests').textContent()).toBe(String(stillPending));
    expect(await page.getByTestId('overdue-key-requests').textContent()).toBe('1');
    await Promise.all([requester.close(), page.context().close()]);
  });

  it('names what to fix beside each field in plain words, and keeps what was typed', async () => {
    const context = await openContext(browser);
    const page = await context.newPage();
    await page.goto(`${running.url}/request-key`);
    const company = 'A'.repeat(201);
    await page.getByLabel('Company').fill(company);
    await page.getByLabel('Contact email').fill('grace at example');
    await page.getByRole('button', { name: 'Send the request' }).click();
    const form = page.getByRole('form', { name: 'Request an API key' });
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toBe('Please correct the marked fields.');
    const errorOf = (label: string) =>
      page
        .locator('label', { has: page.getByLabel(label) })
        .locator('.field-error')
        .textContent();
    expect(await errorOf('Company')).toBe('Use at most 200 characters.');
    expect(await errorOf('Purpose')).toBe('Required.');
    expect(await errorOf('Contact email')).toBe(
      'Enter an email address, such as name@example.com.',
    );
    for (const message of await form.locator('.field-error').allTextContents()) {
      expect(message).not.toMatch(/expected|received|>=|<=|Too (small|big)|Invalid input/);
    }
    expect(await page.getByLabel('Company').inputValue()).toBe(company);
    expect(await page.getByLabel('Contact email').inputValue()).toBe('grace at example');

    // The sign-in page: its command as code, and a wrong password keeps the email.
    await page.goto(`${running.url}/sign-in`);
    expect(await page.locator('main').textContent()).not.toContain('`');
    expect(await page.locator('main code').textContent()).toBe('hallmark admins create');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('form', { name: 'Sign in' }).getByRole('alert').textContent())
      .toMatch(/Wrong email or password/);
    expect(await page.getByLabel('Email').inputValue()).toBe(ADMIN.email);
    await context.close();
  });

  it('fits a phone: nothing wider than its screen on any page, every section reachable', async () => {
    const phone = await openContext(browser, {
      viewport: { width: 375, height: 667 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await signIn(phone, ADMIN);
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url());
    });
    const sections = page.getByRole('navigation', { name: 'Sections' }).getByRole('link');
    const names = await sections.allTextContents();
    expect(names.length).toBeGreaterThanOrEqual(10);
    for (const name of names) {
      const link = sections.filter({ hasText: name }).first();
      // Within the screen, where a thumb can reach it.
      const box = await link.boundingBox();
      expect(box, name).not.toBeNull();
      expect(box?.x ?? -1, name).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0), name).toBeLessThanOrEqual(375);
      const href = await link.getAttribute('href');
      await link.tap();
      await page.waitForURL((url) => url.pathname === href);
      // A phone's browser zooms out to fit a page wider than its screen: then innerWidth grows.
      expect(
        await page.evaluate(() => [
          window.innerWidth,
          document.documentElement.scrollWidth <= window.innerWidth,
        ]),
        name,
      ).toEqual([375, true]);
    }
    await screenshot(page, 'phone');
    expect(missing).toEqual([]);
    // The browser's icon: the console's own, also where browsers look without a link.
    const icon = await page.request.get(`${running.url}/favicon.ico`);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    const linked = await page.locator('link[rel="icon"]').first().getAttribute('href');
    expect((await page.request.get(new URL(linked ?? '', running.url).href)).status()).toBe(200);
    await phone.close();
  });
});

/** A picture as a person hands it to the public page: chosen, sent, and its verdict shown. */
async function checkPicture(page: Page, picture: Uint8Array, name: string): Promise<void> {
  await page.goto(`${running.url}/verify`);
  await page
    .getByTestId('image')
    .setInputFiles({ name, mimeType: 'image/jpeg', buffer: Buffer.from(picture) });
  await page.getByRole('button', { name: 'Check the picture' }).click();
  await page.getByTestId('verdict').waitFor();
}

const verdictOf = (page: Page) => page.getByTestId('verdict').getAttribute('data-verdict');

/** The signed report a page offers, downloaded as a person does and checked as anyone can. */
async function downloadReport(page: Page, file: Uint8Array | undefined): Promise<CheckedReport> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('download-report').click(),
  ]);
  const text = readFileSync(await download.path(), 'utf8');
  const root = readFileSync(
    join(running.service.env.HALLMARK_DATA_DIR ?? '', 'c2pa/development-identity/root-ca.pem'),
    'utf8',
  );
  return checkReport(text, { trustAnchors: root, ...(file === undefined ? {} : { file }) });
}

describe('verification pages in Chromium: the public page and the console', () => {
  let output: Uint8Array;
  let job: { requestId: string; fileId: string };
  let prefix: string;

  beforeAll(async () => {
    const { client, apiKey } = await running.service.newClient();
    prefix = apiKey.slice(0, 11);
    const marked = await watermarkFile(
      client,
      join(photos, 'boats-0.6mp.jpg'),
      {
        watermarkType: ['invisible', 'c2pa'],
        data: { author: 'Ada Lovelace', creationDate: '2025-06-01', licenseType: 'CC-BY-4.0' },
        storeIpfs: true,
        mintNft: true,
      },
      { minIntervalMs: 100 },
    );
    output = await marked.download();
    job = { requestId: marked.job.requestId, fileId: marked.job.fileId };
  }, 120_000);

  /** Nothing of the tenant behind the picture: not its job, its file or its key. */
  async function expectNoTenantIds(page: Page) {
    const html = await page.content();
    for (const id of [job.requestId, job.fileId, prefix]) expect(html).not.toContain(id);
  }

  it('an authentic output, on a phone: the badge, who signed, the mark, the facts and the records', async () => {
    const phone = await openContext(browser, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await phone.newPage();
    await checkPicture(page, output, 'boats.jpg');
    expect(await verdictOf(page)).toBe('authentic');
    expect(await page.getByTestId('verdict').textContent()).toBe('Authentic');
    expect(await page.getByTestId('signer').textContent()).toMatch(/valid, and signed by/);
    expect(await page.getByTestId('mark').textContent()).toMatch(/[0-9a-f]{16}/);
    expect(await page.getByTestId('content').getAttribute('data-state')).toBe('same');
    expect(await page.getByTestId('fact-author').textContent()).toBe('Ada Lovelace');
    expect(await page.getByTestId('fact-licenseType').textContent()).toBe('CC-BY-4.0');
    expect(await page.getByTestId('ipfs').getByRole('link').getAttribute('href')).toMatch(
      /\/ipfs\/b[a-z2-7]+/,
    );
    expect(await page.getByTestId('nft').textContent()).toMatch(/token \d+/);
    expect(await page.getByTestId('manifest-link').getByRole('link').getAttribute('href')).toMatch(
      /\/manifests\//,
    );
    await expectNoTenantIds(page);
    const report = await downloadReport(page, output);
    expect(report.statement).toMatchObject({
      verdict: 'authentic',
      record: { author: 'Ada Lovelace' },
    });
    expect(report.fileChecked).toBe(true);
    // Usable on a phone: nothing wider than its screen.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await screenshot(page, 'verify-authentic');
    await phone.close();
  });

  it('a stripped copy: credentials removed, the record it was issued with still shown', async () => {
    const context = await openContext(browser);
    const page = await context.newPage();
    await checkPicture(page, withoutManifest(output), 'stripped.jpg');
    expect(await verdictOf(page)).toBe('manifest_stripped');
    expect(await page.getByTestId('signer').textContent()).toMatch(/No Content Credentials/);
    expect(await page.getByTestId('fact-author').textContent()).toBe('Ada Lovelace');
    expect(await page.getByTestId('manifest-link').getByRole('link').count()).toBe(1);
    await expectNoTenantIds(page);
    await screenshot(page, 'verify-stripped');
    await context.close();
  });

  it('an edited copy: edited, with the changed region outlined on the picture', async () => {
    const context = await openContext(browser);
    const page = await context.newPage();
    await page.goto(`${running.url}/verify`);
    const edited = await withPatch(page, output);
    await checkPicture(page, edited, 'edited.jpg');
    expect(await verdictOf(page)).toBe('content_edited');
    expect(await page.getByTestId('content').getAttribute('data-state')).toBe('edited');
    expect(Number(await page.getByTestId('region-count').textContent())).toBeGreaterThan(0);
    // Drawn on the picture the browser still holds (the service kept none).
    await expect.poll(() => page.getByTestId('region').count()).toBeGreaterThan(0);
    await expectNoTenantIds(page);
    await screenshot(page, 'verify-edited');
    await context.close();
  });

  it('a re-signed output, without JavaScript: its history shows the earlier version as a thumbnail', async () => {
    const { client } = await running.service.newClient();
    // The service's output sent to it again: the new manifest records the first as its parent.
    const resigned = await watermarkFile(
      client,
      output,
      { watermarkType: ['c2pa'] },
      { minIntervalMs: 100, fileName: 'boats-resigned.jpg', contentType: 'image/jpeg' },
    );
    const context = await openContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    await checkPicture(page, await resigned.download(), 'boats-resigned.jpg');
    await page.waitForLoadState('load');
    // Signed again from the issued version: the mark came with it, nobody is accused.
    expect(await verdictOf(page)).toBe('authentic');
    const steps = page.getByTestId('history-step');
    expect(await steps.count()).toBe(1);
    const thumbnail = steps.first().getByTestId('history-thumbnail');
    expect(await thumbnail.getAttribute('alt')).toMatch(/^Thumbnail the credentials keep of /);
    // Drawn: the browser decoded it (the parent's 256 px thumbnail), in a fixed 48 px frame.
    expect(await thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(256);
    expect(await thumbnail.boundingBox()).toMatchObject({ width: 48, height: 48 });
    await screenshot(page, 'verify-history');
    await context.close();
  }, 120_000);

  it('an unrelated photo, in a browser without JavaScript: the plain form posts, no provenance', async () => {
    const context = await openContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    const cat = readFileSync(join(photos, 'cat-0.15mp.jpg'));
    await checkPicture(page, cat, 'cat.jpg');
    expect(await verdictOf(page)).toBe('no_provenance');
    expect((await downloadReport(page, cat)).statement.verdict).toBe('no_provenance');
    expect(await page.getByTestId('mark').textContent()).toBe('No invisible mark was found.');
    expect(await page.getByTestId('published').textContent()).toContain('none published');
    await screenshot(page, 'verify-unrelated');
    await context.close();
  });

  it('lists them in the console, opens one with its ids, and an admin verifies an image', async () => {
    const context = await openContext(browser);
    const page = await signIn(context, ADMIN);
    await page.goto(`${running.url}/verifications?origin=public`);
    const rows = page.getByTestId('verification-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);
    await screenshot(page, 'verifications');
    await page.goto(`${running.url}/verifications?verdict=content_edited`);
    expect(await rows.count()).toBe(1);
    await rows.first().getByRole('link').click();
    await page.waitForURL(/\/verifications\/[0-9a-f-]{36}$/);
    expect(await verdictOf(page)).toBe('content_edited');
    // The console shows what the public page does not: the job that issued the mark.
    expect(await page.getByTestId('issued-job').textContent()).toBe(job.requestId);
    const report = await downloadReport(page, undefined);
    expect(report.statement.verdict).toBe('content_edited');
    expect(page.url()).toContain(report.statement.verificationId);
    await screenshot(page, 'verification-detail');

    await page.goto(`${running.url}/verifications`);
    const form = page.getByRole('form', { name: 'Verify an image' });
    await form.getByTestId('operator-image').setInputFiles({
      name: 'boats.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from(output),
    });
    await form.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.waitForURL(/\/verifications\/[0-9a-f-]{36}$/);
    expect(await verdictOf(page)).toBe('authentic');
    expect(await page.getByTestId('ids').textContent()).toContain(ADMIN.email);
    await page.goto(`${running.url}/verifications?origin=console`);
    expect(await rows.count()).toBe(1);
    await context.close();
  }, 120_000);

  it('a viewer sees the verifications but the console offers, and the API grants, no verifying', async () => {
    const context = await openContext(browser);
    const page = await signIn(context, VIEWER);
    await page.goto(`${running.url}/verifications`);
    const rows = page.getByTestId('verification-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);
    expect(await page.getByRole('form', { name: 'Verify an image' }).count()).toBe(0);
    await rows.first().getByRole('link').click();
    await page.getByTestId('verdict').waitFor();
    // Reading includes the signed report, to hand on.
    expect(page.url()).toContain((await downloadReport(page, undefined)).statement.verificationId);
    const [cookie] = await context.cookies(running.url);
    const session = `hallmark_session=${cookie?.value ?? ''}`;
    const asViewer = new HallmarkAdminClient({
      baseUrl: running.service.baseUrl,
      fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, cookie: session } }),
    });
    const { csrfToken } = await asViewer.getSession();
    const before = await running.service.prisma.verification.count();
    const refused = await fetch(`${running.service.baseUrl}/admin/verifications`, {
      method: 'POST',
      headers: { cookie: session, 'x-csrf-token': csrfToken, 'content-type': 'image/jpeg' },
      body: Buffer.from(output),
    });
    expect(refused.status).toBe(403);
    expect(await running.service.prisma.verification.count()).toBe(before);
    await context.close();
  });
});
