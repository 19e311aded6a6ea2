// The club board's script: reads the board with the token from the page's own address, and
// reads it again whenever the board's stream says something changed. Names are written as
// text, never as markup.
'use strict';

(function () {
  const token = decodeURIComponent(location.pathname.split('/').pop() || '');
  const EVENTS = [
    'table.created',
    'table.updated',
    'game.started',
    'game.action',
    'game.finished',
    'game.voided',
    'game.abandoned',
    'tournament.created',
    'tournament.updated',
    'session.updated',
    'session.closed',
    'player.updated',
  ];
  let lastEventId = null;
  let reading = false;
  let again = false;
  let stream = null;
  let revoked = false;

  const byId = (id) => document.getElementById(id);
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') node.className = v;
      else node.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(typeof c === 'string' || typeof c === 'number' ? String(c) : c);
    return node;
  }
  /** A name, isolated so a right-to-left name (Arabic, Hebrew) does not reorder the text around it. */
  const who = (name) => el('bdi', {}, name);
  /** Names separated by `sep`, each isolated. */
  function names(list, sep) {
    const out = [];
    list.forEach((n, i) => {
      if (i > 0) out.push(sep);
      out.push(who(n));
    });
    return out;
  }
  function setStatus(text, offline) {
    const s = byId('status');
    s.textContent = text;
    s.classList.toggle('offline', Boolean(offline));
  }

  function money(minor, currency) {
    const sign = minor < 0 ? '−' : '';
    const abs = Math.abs(minor);
    return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}${currency ? ` ${currency}` : ''}`;
  }

  function cubeText(t) {
    return t.cubes.map((c) => `cube ${c.value}${c.owner ? ` (${c.owner})` : ' (centred)'}${c.member ? ` for ${c.member}` : ''}`).join(', ');
  }

  function tableCard(t) {
    const title = t.kind === 'match' ? `Match to ${t.target}${t.tournament ? ` · ${t.tournament}` : ''}` : t.kind === 'chouette' ? 'Chouette' : 'Money game';
    const card = el('article', { class: 'table', 'data-table': t.id, 'aria-label': title });
    card.append(el('h3', {}, title));
    if (t.kind === 'chouette') {
      card.append(el('div', { class: 'side' }, el('span', {}, 'Box: ', who(t.box), ...(t.partner ? [' & ', who(t.partner)] : []))));
      card.append(el('div', { class: 'side' }, el('span', {}, 'Captain: ', t.captain ? who(t.captain) : '—')));
      card.append(el('p', { class: 'meta' }, 'Team: ', ...(t.team.length > 0 ? names(t.team, ', ') : ['—'])));
    } else {
      t.sides.forEach((side, i) => {
        card.append(el('div', { class: 'side' }, el('span', { class: 'name' }, ...names(side, ' & ')), t.score ? el('span', { class: 'score', 'data-side': i }, t.score[i]) : null));
      });
    }
    const meta = [];
    if (t.gameNo !== null) meta.push(`game ${t.gameNo}`);
    if (t.cubes.length > 0) meta.push(cubeText(t));
    const p = el('p', { class: 'meta' }, meta.join(' · ') || 'between games');
    if (t.crawford) p.append(' · ', el('span', { class: 'crawford' }, 'Crawford'));
    card.append(p);
    return card;
  }

  function renderTournament(tm) {
    const box = byId('tournament');
    box.replaceChildren();
    byId('tournament-section').hidden = tm === null;
    if (tm === null) return;
    byId('tournament-h').textContent = `${tm.name} (${tm.format}, ${tm.status})`;
    for (const f of tm.flights) {
      if (tm.flights.length > 1) box.append(el('h3', {}, f.name));
      if (tm.format === 'knockout') {
        const bracket = el('div', { class: 'bracket' });
        for (const r of f.rounds) {
          const col = el('div', { class: 'round', 'data-round': r.no }, el('h4', {}, `Round ${r.no}`));
          for (const p of r.pairings) {
            const sides = p.bye ? [p.sides[0], null] : p.sides;
            const row = el('div', { class: 'pairing' });
            sides.forEach((n, i) => {
              const label = n ? who(n) : p.bye ? 'bye' : '…';
              const line = el('div', { class: p.winnerSide === i ? 'won' : '' }, label, p.score ? ` ${p.score[i]}` : '');
              row.append(line);
            });
            col.append(row);
          }
          bracket.append(col);
        }
        box.append(bracket);
      }
      if (f.standings.length > 0) {
        // Buchholz ranks a Swiss field (R9.4); a knockout's places need only the wins.
        const swiss = tm.format === 'swiss';
        const tbl = el('table', {}, el('caption', {}, swiss ? 'Swiss standings' : 'Places'));
        tbl.append(
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              el('th', { scope: 'col', class: 'num' }, 'Place'),
              el('th', { scope: 'col' }, 'Player'),
              el('th', { scope: 'col', class: 'num' }, 'Wins'),
              swiss ? el('th', { scope: 'col', class: 'num' }, 'Buchholz') : null,
            ),
          ),
        );
        const body = el('tbody');
        for (const s of f.standings)
          body.append(
            el(
              'tr',
              {},
              el('td', { class: 'num' }, s.place === null ? '' : s.place),
              el('td', {}, who(s.name)),
              el('td', { class: 'num' }, s.wins),
              swiss ? el('td', { class: 'num' }, s.buchholz) : null,
            ),
          );
        tbl.append(body);
        box.append(tbl);
      }
    }
  }

  function render(b) {
    byId('title').textContent = [b.clubName, b.sessionName || b.board.name].filter(Boolean).join(' · ');
    document.title = byId('title').textContent;
    const tables = byId('tables');
    tables.replaceChildren(...(b.tables.length > 0 ? b.tables.map(tableCard) : [el('p', { class: 'meta' }, 'No table in play.')]));
    renderTournament(b.tournament);
    byId('standings-section').hidden = b.standings.length === 0;
    const st = byId('standings');
    st.replaceChildren();
    if (b.standings.length > 0) {
      const tbl = el('table', {}, el('caption', {}, 'Tonight'));
      tbl.append(
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            el('th', { scope: 'col', class: 'num' }, '#'),
            el('th', { scope: 'col' }, 'Player'),
            el('th', { scope: 'col', class: 'num' }, 'Net'),
            el('th', { scope: 'col', class: 'num' }, 'Won'),
          ),
        ),
      );
      const body = el('tbody');
      for (const s of b.standings)
        body.append(
          el(
            'tr',
            {},
            el('td', { class: 'num' }, s.rank),
            el('td', {}, who(s.name)),
            el('td', { class: 'num' }, money(s.netMinor, b.currency)),
            el('td', { class: 'num' }, `${s.gamesWon}/${s.gamesPlayed}`),
          ),
        );
      tbl.append(body);
      st.append(tbl);
    }
    byId('results').replaceChildren(
      ...b.results.map((r) =>
        el('li', {}, ...names(r.players, ' v '), ': ', ...(r.winner ? [who(r.winner), ' won'] : ['no winner']), r.points !== null ? ` ${r.points} point${r.points === 1 ? '' : 's'}` : ''),
      ),
    );
    byId('board').setAttribute('aria-busy', 'false');
  }

  function showRevoked() {
    revoked = true;
    if (stream) stream.close();
    setStatus('This board link has been revoked.', true);
    byId('board').replaceChildren(el('p', { class: 'gone' }, 'This board link has been revoked. Ask the club for a new one.'));
  }

  async function read() {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const since = lastEventId ? `?since=${encodeURIComponent(lastEventId)}` : '';
        const res = await fetch(`/v1/board${since}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, cache: 'no-store' });
        if (res.status === 401 || res.status === 403) return showRevoked();
        if (!res.ok) throw new Error(`board answered ${res.status}`);
        render(await res.json());
      } while (again);
    } catch {
      setStatus('Offline: trying again…', true);
      setTimeout(read, 3000);
    } finally {
      reading = false;
    }
  }

  function connect() {
    if (revoked) return;
    const from = lastEventId ? `&lastEventId=${encodeURIComponent(lastEventId)}` : '';
    stream = new EventSource(`/v1/board/stream?token=${encodeURIComponent(token)}${from}`);
    stream.onopen = () => {
      setStatus('Live', false);
      // Anything missed while away is in the board's answer, and the stream resumes after the last event seen.
      void read();
    };
    const changed = (e) => {
      if (e.lastEventId) lastEventId = e.lastEventId;
      void read();
    };
    for (const type of EVENTS) stream.addEventListener(type, changed);
    stream.onerror = () => {
      if (revoked) return;
      setStatus('Offline: reconnecting…', true);
      if (stream.readyState === EventSource.CLOSED) {
        // The server refused the stream: a revoked link, or trouble; the board's answer says which.
        void read().finally(() => setTimeout(connect, 2000));
      }
    };
  }

  window.addEventListener('offline', () => setStatus('Offline: no network', true));
  document.addEventListener('DOMContentLoaded', () => {
    void read();
    connect();
  });
})();
