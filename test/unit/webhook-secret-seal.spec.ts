import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, openSecret, sealSecret } from '../../src/webhooks/secret-seal';

describe('webhook secrets at rest', () => {
  const key = randomBytes(32);
  const club = '0190a0a0-0000-7000-8000-000000000001';
  const hook = '0190a0a0-0000-7000-8000-000000000002';

  it('are Standard Webhooks secrets: whsec_ and the base64 of 32 random bytes, each new', () => {
    const s = newWebhookSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(s);
    // The package signs and verifies with it.
    const now = new Date();
    const wh = new Webhook(s);
    const signature = wh.sign('msg_1', now, '{"a":1}');
    expect(wh.verify('{"a":1}', { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature })).toEqual({ a: 1 });
  });

  it('are sealed so that the stored text reveals nothing, and open with the same key for the same subscription', () => {
    const s = newWebhookSecret();
    const sealed = sealSecret(key, club, hook, s);
    expect(sealed).toMatch(/^aes256gcm:/);
    expect(sealed).not.toContain(s);
    expect(sealed).not.toContain(s.slice(6));
    expect(sealed).not.toContain(Buffer.from(s.slice(6), 'base64').toString('hex'));
    expect(sealSecret(key, club, hook, s)).not.toBe(sealed);
    expect(openSecret(key, club, hook, sealed)).toBe(s);
  });

  it('do not open with another key, on another subscription, or once changed', () => {
    const s = newWebhookSecret();
    const sealed = sealSecret(key, club, hook, s);
    expect(openSecret(randomBytes(32), club, hook, sealed)).toBeNull();
    expect(openSecret(key, club, club, sealed)).toBeNull();
    const raw = Buffer.from(sealed.slice('aes256gcm:'.length), 'base64');
    raw[raw.length - 1] ^= 1;
    expect(openSecret(key, club, hook, `aes256gcm:${raw.toString('base64')}`)).toBeNull();
    expect(openSecret(key, club, hook, s)).toBeNull();
    expect(openSecret(key, club, hook, 'aes256gcm:AAAA')).toBeNull();
  });
});
