import { describe, expect, it } from 'vitest';
import { helmetHeaders, PORTAL_HELMET_OPTIONS } from './security-headers.js';

describe('helmetHeaders', () => {
  const headers = helmetHeaders(PORTAL_HELMET_OPTIONS);

  it('holds the portal content security policy', () => {
    const directives = Object.fromEntries(headers['content-security-policy']!.split(';').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives).toMatchObject({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data: blob:",
      'object-src': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(directives).not.toHaveProperty('upgrade-insecure-requests');
  });

  it("holds helmet's other defaults, without cross-origin embedder policy", () => {
    expect(headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(headers).not.toHaveProperty('cross-origin-embedder-policy');
    expect(headers).not.toHaveProperty('x-powered-by');
  });
});
