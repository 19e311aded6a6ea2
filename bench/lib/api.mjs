// The API calls the benchmark makes to set up its data, the cube actions it sends,
// and a model of a chouette's seats so that every game it records is valid.

/** An answer that was not what the benchmark expected. */
export class UnexpectedReply extends Error {
  /** @param {import('./http.mjs').Reply} reply */
  constructor(reply) {
    super(`${reply.label} answered ${reply.status}: ${reply.text().slice(0, 1000)}`);
    this.name = 'UnexpectedReply';
    this.reply = reply;
  }
}

/**
 * Throws unless the answer is 2xx; answers its body, parsed when it is JSON.
 * @param {import('./http.mjs').Reply} reply
 * @returns {any}
 */
export function expectOk(reply) {
  if (!reply.ok) throw new UnexpectedReply(reply);
  if (reply.body.length === 0) return null;
  return /json/.test(String(reply.headers['content-type'])) ? reply.json() : reply.body;
}

/** Calls that must succeed, as one club key (or the operator). */
export class Api {
  /**
   * @param {import('./http.mjs').HttpClient} client
   * @param {string} token  the bearer token
   */
  constructor(client, token) {
    this.client = client;
    this.token = token;
  }

  /** @param {string} path @param {unknown} [body] @returns {Promise<any>} */
  async post(path, body = {}) {
    return expectOk(await this.client.post(path, body, { token: this.token }));
  }

  /** @param {string} path @returns {Promise<any>} */
  async get(path) {
    return expectOk(await this.client.get(path, { token: this.token }));
  }

  /**
   * Creates a club as the operator; answers an Api for its owner key.
   * @param {import('./http.mjs').HttpClient} client
   * @param {string} adminToken
   * @param {string} name
   */
  static async newClub(client, adminToken, name) {
    const created = expectOk(await client.post('/v1/clubs', { name, currency: 'USD' }, { token: adminToken }));
    return new Api(client, created.apiKey.token);
  }

  /**
   * Creates players named `${prefix} 1`…; answers their ids in order.
   * @param {string} prefix
   * @param {number} n
   * @returns {Promise<string[]>}
   */
  async players(prefix, n) {
    const ids = [];
    for (let i = 1; i <= n; i++) ids.push((await this.post('/v1/players', { name: `${prefix} ${i}` })).id);
    return ids;
  }

  /**
   * Scorer keys, one per tablet: each connection of a load sends with its own key, as a
   * club's tablets do, so no single key nears the rate limit however fast the machine.
   * @param {string} prefix
   * @param {number} n
   * @returns {Promise<string[]>} the tokens
   */
  async tabletKeys(prefix, n) {
    return (await this.tabletKeysWithIds(prefix, n)).map((k) => k.token);
  }

  /**
   * As tabletKeys, each with its id.
   * @param {string} prefix
   * @param {number} n
   * @returns {Promise<Array<{ id: string, token: string }>>}
   */
  async tabletKeysWithIds(prefix, n) {
    const keys = [];
    for (let i = 1; i <= n; i++) {
      const k = await this.post('/v1/api-keys', { name: `${prefix} ${i}`, role: 'scorer' });
      keys.push({ id: k.id, token: k.token });
    }
    return keys;
  }

  /** The club's id, as its owner key reads it. @returns {Promise<string>} */
  async clubId() {
    return (await this.get('/v1/club')).id;
  }

  /** @param {string} name @param {number} [rakePercent=0] @returns {Promise<string>} the session id */
  async session(name, rakePercent = 0) {
    return (await this.post('/v1/sessions', { name, rakePercent })).id;
  }

  /** @param {string} sessionId @param {string} a @param {string} b @param {number} [stakeMinor=100] @returns {Promise<string>} the table id */
  async moneyTable(sessionId, a, b, stakeMinor = 100) {
    return (await this.post('/v1/money-games', { sessionId, players: [a, b], stakeMinor })).id;
  }

  /**
   * A per-member chouette seated in the given order (box, captain, team).
   * @param {string} sessionId
   * @param {string[]} order
   * @returns {Promise<ChouetteSeats>}
   */
  async chouette(sessionId, order) {
    const c = await this.post('/v1/chouettes', { sessionId, stakeMinor: 100, seating: { order } });
    return new ChouetteSeats(c.id, c.box, c.team);
  }
}

// ---- cube actions -------------------------------------------------------------------

/** @param {string} by @returns {object} a double; without `cubes` the box doubles every cube it may */
export const double = (by) => ({ type: 'double', by });
/** @param {string} by */
export const take = (by) => ({ type: 'take', by });
/** @param {string} by */
export const pass = (by) => ({ type: 'pass', by });
/** @param {string} winner @param {'single' | 'gammon' | 'backgammon'} [result='single'] */
export const finish = (winner, result = 'single') => ({ type: 'finish', winner, result, resigned: false });

/**
 * A whole money game between `a` and `b`; `k` picks one of five shapes, so that a
 * session's nets come out uneven.
 * @param {string} a
 * @param {string} b
 * @param {number} k
 */
export function moneyGame(a, b, k) {
  switch (k % 5) {
    case 0:
      return [double(a), take(b), finish(a)]; // a +2
    case 1:
      return [finish(b, 'gammon')]; // Jacoby: a centred cube counts a gammon single, b +1
    case 2:
      return [double(b), pass(a)]; // b +1
    case 3:
      return [double(a), take(b), double(b), take(a), finish(b)]; // b +4
    default:
      return [double(a), take(b), finish(a, 'gammon')]; // a +4
  }
}

// ---- chouette seats -------------------------------------------------------------------

/**
 * What the benchmark knows of a chouette's seats (R5.2, R5.7): the box and the team
 * line, captain first. No partner (partnerFrom is off by default).
 */
export class ChouetteSeats {
  /** @param {string} id @param {string} box @param {string[]} team */
  constructor(id, box, team) {
    this.id = id;
    this.box = box;
    this.team = [...team];
  }

  get captain() {
    return this.team[0];
  }

  /**
   * A whole per-member game: the box doubles every member's cube, every member
   * takes his own, then the box (`boxWins`) or the captain wins a single.
   * @param {boolean} boxWins
   */
  game(boxWins) {
    return [double(this.box), ...this.team.map((m) => take(m)), finish(boxWins ? this.box : this.captain)];
  }

  /**
   * R5.7 rotation after a game decided against the captain's cube: box beats
   * captain → the box stays, the captain goes to the end of the line; captain
   * beats box → the captain becomes box, the old box goes to the end.
   * @param {boolean} boxWon
   */
  rotate(boxWon) {
    const [captain, ...rest] = this.team;
    if (boxWon) {
      this.team = [...rest, captain];
    } else {
      this.team = [...rest, this.box];
      this.box = captain;
    }
  }

  /**
   * Reads the seats back from the server.
   * @param {Api} api
   * @returns {Promise<{ box: string, team: string[], currentGameNo: number | null }>}
   */
  async fetch(api) {
    const c = await api.get(`/v1/chouettes/${this.id}`);
    return { box: c.box, team: c.team, currentGameNo: c.currentGameNo };
  }

  /**
   * Throws unless the server seats the players as this model does.
   * @param {Api} api
   */
  async verify(api) {
    const s = await this.fetch(api);
    if (s.box !== this.box || JSON.stringify(s.team) !== JSON.stringify(this.team)) {
      throw new Error(`chouette ${this.id}: the server seats box ${s.box}, team ${s.team.join(',')}; ` + `R5.7 rotation gives box ${this.box}, team ${this.team.join(',')}`);
    }
  }

  /**
   * After a refused request: abandon any game in progress and take the seats from the server.
   * @param {Api} api
   */
  async resync(api) {
    const s = await this.fetch(api);
    if (s.currentGameNo !== null) await api.post(`/v1/chouettes/${this.id}/games/${s.currentGameNo}/abandon`);
    this.box = s.box;
    this.team = s.team;
  }
}
