import { describe, expect, it } from 'vitest';
import { tokenKey } from '../oai/resumption-token.js';
import { downloadLinkKey, downloadLinkQuery, signDownloadLink, verifyDownloadLink } from './signed-link.js';

const key = downloadLinkKey('the installation secret');
const now = new Date('2026-03-01T12:00:00Z');
const link = { orderId: 'order-1', fileId: 'file-1', expiresAt: new Date('2026-03-02T12:00:00Z') };

describe('signed download links', () => {
  it('accepts a link it signed, until its expiry', () => {
    const params = signDownloadLink(link, key);
    expect(params).toMatchObject({ order: 'order-1', file: 'file-1', expires: String(link.expiresAt.getTime() / 1000) });
    expect(verifyDownloadLink({ ...params }, key, now)).toEqual({ ok: true, link });
    const query = Object.fromEntries(new URLSearchParams(downloadLinkQuery(link, key)));
    expect(verifyDownloadLink(query, key, now)).toEqual({ ok: true, link });
  });

  it('refuses a link for another file or order as forged', () => {
    const params = signDownloadLink(link, key);
    expect(verifyDownloadLink({ ...params, file: 'file-2' }, key, now)).toEqual({ ok: false, reason: 'forged' });
    expect(verifyDownloadLink({ ...params, order: 'order-2' }, key, now)).toEqual({ ok: false, reason: 'forged' });
  });

  it('refuses a longer expiry as forged, not as valid or expired', () => {
    const params = signDownloadLink(link, key);
    expect(verifyDownloadLink({ ...params, expires: String(Number(params.expires) + 86_400) }, key, now)).toEqual({ ok: false, reason: 'forged' });
  });

  it('refuses a link past its expiry as expired', () => {
    const params = signDownloadLink(link, key);
    expect(verifyDownloadLink(params, key, link.expiresAt)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyDownloadLink(params, key, new Date(link.expiresAt.getTime() - 1000))).toMatchObject({ ok: true });
  });

  it("refuses a link signed with another key, including the OAI tokens' key from the same secret", () => {
    const params = signDownloadLink(link, key);
    expect(verifyDownloadLink(params, downloadLinkKey('another secret'), now)).toEqual({ ok: false, reason: 'forged' });
    expect(verifyDownloadLink(signDownloadLink(link, tokenKey('the installation secret')), key, now)).toEqual({ ok: false, reason: 'forged' });
  });

  it('refuses missing, repeated and malformed parameters as malformed', () => {
    const params = signDownloadLink(link, key);
    const { signature: _signature, ...unsigned } = params;
    for (const bad of [
      unsigned,
      { ...params, file: ['a', 'b'] },
      { ...params, expires: '12x' },
      { ...params, signature: 'short' },
      { ...params, signature: `${params.signature}==` },
    ]) {
      expect(verifyDownloadLink(bad, key, now)).toEqual({ ok: false, reason: 'malformed' });
    }
  });
});
