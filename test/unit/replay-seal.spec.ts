import { openReplay, replayKey, sealReplay } from '../../src/common/replay-seal';

describe('sealed idempotent replays', () => {
  const token = 'bgk_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef_' + 'S'.repeat(43);
  const body = JSON.stringify({ apiKey: { token: 'bgk_secret_token_in_the_answer' }, name: 'Zoë ✓' });
  const hash = 'ab'.repeat(32);
  const key = replayKey(token, 'idem-1', 'POST', '/v1/api-keys');

  it('opens for the same token, Idempotency-Key and route, byte for byte', () => {
    const sealed = sealReplay(key, 201, hash, body);
    expect(sealed).not.toContain('bgk_secret');
    expect(openReplay(replayKey(token, 'idem-1', 'POST', '/v1/api-keys'), 201, hash, sealed)).toBe(body);
  });

  it('never opens for another token, another Idempotency-Key or another route', () => {
    const sealed = sealReplay(key, 201, hash, body);
    expect(openReplay(replayKey(`${token.slice(0, -1)}T`, 'idem-1', 'POST', '/v1/api-keys'), 201, hash, sealed)).toBeNull();
    expect(openReplay(replayKey(token, 'idem-2', 'POST', '/v1/api-keys'), 201, hash, sealed)).toBeNull();
    expect(openReplay(replayKey(token, 'idem-1', 'POST', '/v1/clubs'), 201, hash, sealed)).toBeNull();
  });

  it('does not open a row whose status or request hash was changed, nor a damaged one', () => {
    const sealed = sealReplay(key, 201, hash, body);
    expect(openReplay(key, 200, hash, sealed)).toBeNull();
    expect(openReplay(key, 201, 'cd'.repeat(32), sealed)).toBeNull();
    expect(openReplay(key, 201, hash, sealed.slice(0, -4) + 'AAAA')).toBeNull();
    expect(openReplay(key, 201, hash, 'aes256gcm:AAAA')).toBeNull();
  });

  it('seals the same answer differently each time (random IV)', () => {
    expect(sealReplay(key, 201, hash, body)).not.toBe(sealReplay(key, 201, hash, body));
  });

  it('answers a record stored in the clear before sealing existed as it is', () => {
    expect(openReplay(key, 201, hash, '{"id":1}')).toBe('{"id":1}');
    expect(openReplay(key, 204, hash, 'null')).toBe('null');
  });
});
