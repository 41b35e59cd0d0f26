// The live service's pages: post facts to the API, follow the feed (server-sent events).
// No inline script anywhere: each page says what it is with data-live="..." and this file
// starts it (Content-Security-Policy script-src 'self').
"use strict";
const Live = (() => {
  const SEATS = {N: "North", E: "East", S: "South", W: "West"};
  const LHO = {N: "E", E: "S", S: "W", W: "N"};
  const SIGNS = {S: "♠", H: "♥", D: "♦", C: "♣", NT: "NT"};
  const cardWords = (c) => (SIGNS[c[0]] || c[0]) + (c.slice(1) === "T" ? "10" : c.slice(1));
  const callWords = (c) => c === "X" ? "Double" : c === "XX" ? "Redouble" : c === "Pass" ? "Pass"
    : c[0] + (SIGNS[c.slice(1)] || c.slice(1));
  const FACT_WORDS = {CallPlaced: "call", CardPlayed: "card", ClaimMade: "claim", ClaimAgreed: "agreement to the claim",
    ClaimDisputed: "objection to the claim", OptionChosen: "choice", DirectorCalled: "call for the director",
    AttentionDrawn: "attention drawn", ResultReported: "result", EntryVoided: "undo", BoardOpened: "start of the board",
    CallReplaced: "change of call", ExplanationGiven: "explanation", ExplanationCorrected: "corrected explanation",
    CardDropped: "card dropped", CardHeld: "card held"};

  const say = (text, kind) => {
    const box = document.getElementById("message");
    if (!box) return;
    box.innerHTML = "";
    if (!text) return;
    const p = document.createElement("p");
    p.className = "msg " + (kind || "error");
    p.textContent = text;
    box.appendChild(p);
  };
  const live = (text, kind) => {
    const el = document.getElementById("live");
    if (!el) return;
    el.textContent = text;
    el.dataset.state = kind || "";
  };

  // What a fact is, in a player's words (the queue, the 409 message).
  function factWords(f) {
    const who = SEATS[f.seat || f.by] || "";
    if (f.type === "CallPlaced") return who + "'s call " + callWords(f.call);
    if (f.type === "CardPlayed") return who + "'s card " + cardWords(f.card);
    return (who ? who + "'s " : "the ") + (FACT_WORDS[f.type] || "entry");
  }

  // The ledger's refusal in a player's words: no event names, seqs, addresses, status codes.
  function playerText(message) {
    let t = String(message || "");
    t = t.replace(/\s*\(it is [NESW]'s card\)/g, "");
    t = t.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/g, "(the server)");
    t = t.replace(/\b[\w.-]+\/[\w.-]+\/(?:(?:open|closed)\/)?t\d+\/b\d+\b/g, "this board");
    t = t.replace(/\s*\((?:at )?seqs? [0-9, ]+\)|\bseqs? \d+\b|\bline \d+:?\s*/g, " ");
    for (const [name, words] of Object.entries(FACT_WORDS)) t = t.replace(new RegExp("\\b" + name + "\\b", "g"), words);
    t = t.replace(/\b([SHDC])([2-9TJQKA])\b/g, (m) => cardWords(m));
    t = t.replace(/\b([NESW])\b(?= (?:was|has|is|does|holds|played|plays|must|may|calls|called))/g, (m) => SEATS[m]);
    return t.replace(/\s{2,}/g, " ").trim();
  }

  function words(res, fact) {
    if (res.status === 0 || res.status >= 500) return "The scoring server cannot be reached just now: this tap is kept on this device and sent when it can be.";
    if (res.status === 401) return "This device's link is no longer valid: ask the director for a new one.";
    if (res.status === 403) return "This device may not log that: " + playerText(res.body.message) + ". Ask the director.";
    if (res.status === 429) return "Too many taps at once: wait a moment, then tap again.";
    if (res.status === 409) return "Another device at this table logged something just now; the page now shows it. Tap again if " + factWords(fact) + " is still to be logged.";
    return "Not logged: " + playerText(res.body.message);
  }

  const newId = () => {
    const a = new Uint8Array(10);
    crypto.getRandomValues(a);
    return "dev-" + Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
  };

  async function post(stream, facts, opts) {
    const headers = {"Content-Type": "application/json"};
    if (opts.token) headers["Authorization"] = "Bearer " + opts.token;
    if (opts.csrf) headers["X-CSRF-Token"] = opts.csrf;
    let url = "/api/streams/" + stream + "/events";
    if (opts.expected !== undefined && opts.expected !== null && !Number.isNaN(opts.expected)) url += "?expected_seq=" + opts.expected;
    let r;
    try {
      r = await fetch(url, {method: "POST", headers, body: JSON.stringify(facts), credentials: "same-origin"});
    } catch (e) {
      return {ok: false, status: 0, body: {}};  // no network
    }
    let body = {};
    try { body = await r.json(); } catch (e) { body = {}; }
    return {ok: r.ok, status: r.status, body};
  }

  function follow(url, onEvent, onOpen) {
    const es = new EventSource(url);
    let lost = false;
    es.onopen = () => { live("live", "live"); if (lost && onOpen) onOpen(); lost = false; };
    es.onerror = () => { lost = true; live("offline: reconnecting…", "offline"); };
    es.addEventListener("ledger", (e) => onEvent(JSON.parse(e.data)));
    // The director withdrew this device's access: the server ends the feed; say why.
    es.addEventListener("revoked", (e) => { es.close(); live("closed"); say(JSON.parse(e.data).message); });
    return es;
  }

  // Re-read a server-rendered panel, at most every 120 ms. When a feed event
  // asked for it, el.dataset.shown is then the newest position the panel shows.
  function refresher(el, urlOf, after) {
    let timer = null;
    let latest = 0;
    return (event) => {
      if (event && event.position) latest = Math.max(latest, event.position);
      if (timer) return;
      timer = setTimeout(async () => {
        timer = null;
        const target = latest;
        let r;
        try { r = await fetch(typeof urlOf === "function" ? urlOf() : urlOf, {credentials: "same-origin"}); }
        catch (e) { return; }
        if (r.ok) {
          const open = Array.from(el.querySelectorAll("details[open][id]"), (d) => d.id);
          el.innerHTML = await r.text();
          for (const id of open) { const d = document.getElementById(id); if (d) d.open = true; }
          if (target) el.dataset.shown = String(Math.max(target, Number(el.dataset.shown || 0)));
          if (after) after();
        }
      }, 120);
    };
  }

  // -- the table device ----------------------------------------------------------------
  function table(el, token) {
    const qkey = "ledger-queue:" + token.slice(-12);
    const queue = () => JSON.parse(localStorage.getItem(qkey) || "[]");
    const keep = (items) => localStorage.setItem(qkey, JSON.stringify(items));
    const mode = {};
    const panel = () => el.querySelector(".panel");
    const panelUrl = () => {
      const s = panel() ? panel().dataset.stream : "";
      return "/table/" + token + "/panel" + (s && mode[s] ? "?mode=" + mode[s] : "");
    };
    let chosen = {};  // the bidding box's caller and the keypad's player, suit
    const reset = () => {
      const p = panel();
      chosen = {caller: p && (p.dataset.seat || p.dataset.caller), cardSeat: null, suit: null, quick: {risk: ""}};
      const pressed = el.querySelector(".card-seat[aria-pressed=true]");
      if (pressed) chosen.cardSeat = pressed.dataset.seat;
      clock();
    };
    const refresh = refresher(el, panelUrl, reset);
    reset();

    function status() {
      const n = queue().length;
      if (n) live("offline: " + n + " tap" + (n > 1 ? "s" : "") + " kept on this device, waiting to be sent (" +
                  queue().map((q) => factWords(q.facts[0])).join(", ") + ")", "offline");
      else if (!navigator.onLine) live("offline: no network", "offline");
      else live("live", "live");
    }

    let flushing = false;
    async function flush() {
      if (flushing) return;
      flushing = true;
      try {
        while (queue().length) {
          const item = queue()[0];
          const res = await post(item.stream, item.facts, {token});  // the ids make a re-send safe
          if (res.status === 0 || res.status >= 500 || res.status === 429) break;
          keep(queue().slice(1));
          if (!res.ok) say("A tap kept while offline was not logged: " + words(res, item.facts[0]));
          else say("Sent: " + factWords(item.facts[0]) + " (kept while offline).", "ok");
        }
      } finally {
        flushing = false;
        status();
        refresh();
      }
    }

    async function send(facts, opts) {
      const p = panel();
      for (const f of facts) if (!f.id) f.id = newId();
      const stream = (opts && opts.stream) || p.dataset.stream;
      if (queue().length) {  // keep the order: behind what waits
        keep(queue().concat([{stream, facts}]));
        status();
        flush();
        return {queued: true};
      }
      const expected = opts && opts.seq !== undefined ? Number(opts.seq) : Number(p.dataset.seq);
      const res = await post(stream, facts, {token, expected});
      if (res.status === 0 || res.status >= 500) {
        keep(queue().concat([{stream, facts}]));
        say("No connection: " + factWords(facts[0]) + " is kept on this device and will be sent when the network is back.", "ok");
        status();
        return {queued: true};
      }
      if (res.ok) say("");
      else if (res.status === 409) await conflict(stream, facts[0], res);
      else say(words(res, facts[0]));
      refresh(null);
      return res;
    }

    // A 409: was it the same entry, logged by the other device? Say which.
    async function conflict(stream, fact, res) {
      let same = false;
      try {
        const r = await fetch("/api/streams/" + stream + "/log", {headers: {"Authorization": "Bearer " + token}});
        const log = (await r.json()).events || [];
        const after = Number(panel().dataset.seq);
        same = log.some((e) => e.seq > after && e.type === fact.type && ["seat", "by", "call", "card"]
          .every((k) => fact[k] === undefined || e.data[k] === fact[k]));
      } catch (e) { /* the general words below */ }
      if (same) say(factWords(fact) + " was already logged by another device at this table: it is logged once.", "ok");
      else say(words(res, fact));
    }

    function press(selector, btn) {
      for (const b of el.querySelectorAll(selector)) b.setAttribute("aria-pressed", b === btn ? "true" : "false");
    }

    function quickSummary() {
      const q = chosen.quick;
      const out = el.querySelector("#quick-summary");
      const ready = el.querySelector("#quick-ready");
      if (!out) return;
      const passed = q.level === "Pass";
      const done = passed || (q.level && q.strain && q.declarer && q["lead-suit"] && q["lead-rank"] && q.tricks !== undefined);
      if (passed) out.textContent = "Passed out.";
      else {
        const parts = [];
        parts.push(q.level && q.strain ? callWords(q.level + q.strain) + (q.risk || "") : "contract ?");
        parts.push(q.declarer ? "by " + SEATS[q.declarer] : "declarer ?");
        parts.push(q["lead-suit"] && q["lead-rank"] ? "lead " + cardWords(q["lead-suit"] + q["lead-rank"]) : "lead ?");
        if (q.tricks !== undefined && q.level) {
          const over = Number(q.tricks) - 6 - Number(q.level);
          parts.push(q.tricks + " tricks: " + (over === 0 ? "made" : over > 0 ? "made, +" + over : "down " + (-over)));
        } else parts.push("tricks ?");
        out.textContent = parts.join(" · ");
      }
      ready.disabled = !done;
      if (done) {
        const defenders = passed ? "" : ("NS".includes(q.declarer) ? "East-West" : "North-South");
        ready.textContent = passed ? "Confirm: passed out" : "Show " + defenders + " to confirm";
      }
    }

    function quickFact() {
      const q = chosen.quick;
      if (q.level === "Pass") return {type: "ResultReported", contract: "Pass", text: "entered at the table (quick entry); passed out, confirmed by both sides"};
      const defenders = "NS".includes(q.declarer) ? "East-West" : "North-South";
      return {type: "ResultReported", contract: q.level + q.strain, declarer: q.declarer, risk: q.risk || "",
              tricks: Number(q.tricks), lead: q["lead-suit"] + q["lead-rank"],
              text: "entered at the table (quick entry); confirmed by " + defenders};
    }

    el.addEventListener("click", async (ev) => {
      const btn = ev.target.closest("button");
      if (!btn || btn.disabled) return;
      const p = panel();
      if (btn.classList.contains("seat-choice")) {  // the bidding box logs for another seat
        chosen.caller = btn.dataset.seat;
        press(".seat-choice", btn);
        const c = el.querySelector("#caller");
        if (c) { c.textContent = SEATS[chosen.caller]; c.dataset.seat = chosen.caller; }
        return;
      }
      if (btn.dataset.call) {
        const seat = p.dataset.seat || chosen.caller;
        btn.disabled = true;
        const res = await send([{type: "CallPlaced", seat, call: btn.dataset.call}]);
        btn.disabled = false;
        if (res.queued && !p.dataset.seat) {  // offline: the next call is the next player's
          chosen.caller = LHO[seat];
          const c = el.querySelector("#caller");
          if (c) { c.textContent = SEATS[chosen.caller]; c.dataset.seat = chosen.caller; }
          press(".seat-choice", el.querySelector('.seat-choice[data-seat="' + chosen.caller + '"]'));
        }
        return;
      }
      if (btn.classList.contains("card-seat")) { chosen.cardSeat = btn.dataset.seat; press(".card-seat", btn); return; }
      if (btn.classList.contains("card-suit")) { chosen.suit = btn.dataset.suit; press(".card-suit", btn); return; }
      if (btn.classList.contains("card-rank")) {
        if (!chosen.suit) { say("Tap the suit first, then the rank."); return; }
        if (!chosen.cardSeat) { say("Tap who played the card first."); return; }
        const card = chosen.suit + btn.dataset.rank;
        const seat = chosen.cardSeat;
        chosen.suit = null;
        press(".card-suit", null);
        const res = await send([{type: "CardPlayed", seat, card}]);
        if (res.queued) {  // offline: the next card is the next player's, as a rule
          chosen.cardSeat = LHO[seat];
          press(".card-seat", el.querySelector('.card-seat[data-seat="' + chosen.cardSeat + '"]'));
        }
        return;
      }
      if (btn.dataset.q) {
        chosen.quick[btn.dataset.q] = btn.dataset.v;
        press('[data-q="' + btn.dataset.q + '"]', btn);
        quickSummary();
        return;
      }
      if (btn.id === "quick-ready") {
        const q = chosen.quick;
        const box = el.querySelector("#quick-confirm");
        const defenders = q.level === "Pass" ? "Both sides" : ("NS".includes(q.declarer) ? "East-West" : "North-South");
        el.querySelector("#quick-confirm-text").textContent = defenders + ": please check and confirm. " +
          el.querySelector("#quick-summary").textContent;
        box.hidden = false;
        el.querySelector("#quick-confirm-yes").focus();
        return;
      }
      if (btn.id === "quick-confirm-no") { el.querySelector("#quick-confirm").hidden = true; return; }
      if (btn.id === "quick-confirm-yes") {
        btn.disabled = true;
        const res = await send([quickFact()]);
        btn.disabled = false;
        if (res.ok || res.queued) say(res.queued ? "" : "Result logged.", "ok");
        return;
      }
      if (btn.id === "switch-cards") {
        mode[p.dataset.stream] = "cards";
        refresh();
        return;
      }
      if (btn.id === "undo-ask") { el.querySelector("#undo-confirm").hidden = false; el.querySelector("#undo-yes").focus(); return; }
      if (btn.id === "undo-no") { el.querySelector("#undo-confirm").hidden = true; return; }
      if (btn.id === "undo-yes") {
        btn.disabled = true;
        const res = await send([{type: "EntryVoided", about: Number(btn.dataset.about),
                                 reason: "entry error at the table's device: " + btn.dataset.words}]);
        if (res.ok) say("Undone: " + btn.dataset.words + ".", "ok");
        return;
      }
      if (!btn.dataset.fact) return;
      const fact = JSON.parse(btn.dataset.fact);
      btn.disabled = true;
      await send([fact], btn.dataset.stream ? {stream: btn.dataset.stream, seq: btn.dataset.seq} : undefined);
      btn.disabled = false;
    });
    el.addEventListener("submit", async (ev) => {
      const form = ev.target.closest("form.claim-form, form.fact-form");
      if (!form) return;
      ev.preventDefault();
      const fact = form.classList.contains("fact-form") ? formFact(form)
        : {type: "ClaimMade", seat: form.seat.value, tricks: Number(form.tricks.value)};
      const res = await send([fact]);
      if (res.ok && form.classList.contains("fact-form")) say("Logged: " + (FACT_WORDS[fact.type] || "the entry") + ".", "ok");
    });
    window.addEventListener("online", () => { status(); flush(); });
    window.addEventListener("offline", status);
    setInterval(() => { if (queue().length) flush(); }, 5000);
    // From the last position seen: the browser sends Last-Event-ID when it reconnects, and
    // the panel is read again then (what happened while the network was away).
    follow("/api/feed?token=" + encodeURIComponent(token), refresh, () => { flush(); refresh(); });
    status();
    if (queue().length) flush();
  }

  // The round clock: minutes left of the round the director set, from the round's first board.
  let clockTimer = null;
  function clock() {
    const el = document.getElementById("clock");
    if (clockTimer) { clearInterval(clockTimer); clockTimer = null; }
    if (!el) return;
    const start = Date.parse(el.dataset.start);
    const minutes = Number(el.dataset.minutes);
    const tick = () => {
      const left = Math.round((start + minutes * 60000 - Date.now()) / 60000);
      el.textContent = left > 0 ? "round clock: " + left + " min left" : "round time is up" + (left < 0 ? " (" + (-left) + " min over)" : "");
      el.classList.toggle("red", left <= 0);
    };
    tick();
    clockTimer = setInterval(tick, 15000);
  }

  function formFact(form) {
    const fact = {type: form.dataset.type};
    for (const input of form.querySelectorAll("input, select, textarea")) {
      if (!input.name || input.value === "" || input.dataset.skip) continue;
      let v = input.value;
      if (input.dataset.json) { try { v = JSON.parse(v); } catch (e) { /* the ledger names the field */ } }
      else if (input.dataset.list) v = v.split(",").map((s) => s.trim()).filter(Boolean);
      else if (input.dataset.bool) v = v === "true";
      else if (input.type === "number" || input.dataset.number) v = Number(v);
      fact[input.name] = v;
    }
    if (form.dataset.type === "AdjustedScoreAwarded" && fact.kind !== "artificial") {
      // the weighted or assigned score's rows: result and weight, in words
      const rows = [];
      for (const row of form.querySelectorAll(".score-row")) {
        const get = (n) => { const i = row.querySelector('[name="' + n + '"]'); return i ? i.value : ""; };
        if (!get("r_contract")) continue;
        const r = {side: get("r_side") || "both", contract: get("r_contract"), declarer: get("r_declarer"),
                   risk: get("r_risk"), tricks: Number(get("r_tricks"))};
        if (fact.kind === "weighted") r.weight = Number(get("r_weight"));
        rows.push(r);
      }
      if (rows.length) fact.results = rows;
      delete fact.ns; delete fact.ew;
    }
    for (const k of Object.keys(fact)) if (k.startsWith("r_")) delete fact[k];
    return fact;
  }

  function forms(root, csrf, streamOf, done) {
    root.addEventListener("submit", async (ev) => {
      const form = ev.target.closest("form.director-form");
      if (!form) return;
      ev.preventDefault();
      const res = await post(streamOf(form), [formFact(form)], {csrf});
      if (res.ok) {
        const text = (form.dataset.done || form.dataset.type + " recorded") + " (seq " + res.body.seqs.join(", ") + ")";
        say(text, "ok");
        form.reset();
        sessionStorage.setItem("ledger-message", text);  // shown again after the reload
        done();
      }
      else say(res.body.message || (res.status === 0 ? "The server cannot be reached: nothing was recorded." : "Refused (" + res.status + ")"));
    });
  }

  function console_(el, panelUrl, prefix) {
    const refresh = refresher(el, panelUrl);
    follow("/api/feed?prefix=" + encodeURIComponent(prefix), refresh, refresh);
    setInterval(refresh, 15000);  // the waiting times
  }

  function kept() {
    const text = sessionStorage.getItem("ledger-message");
    if (text) { sessionStorage.removeItem("ledger-message"); say(text, "ok"); }
  }

  function board(el) {
    kept();
    const stream = el.dataset.stream;
    forms(el, el.dataset.csrf, () => stream, () => setTimeout(() => location.reload(), 300));
    // A tap on a card adds it to the claim's line of play (ClaimRuled.line, spec 10.B).
    el.addEventListener("click", (ev) => {
      const btn = ev.target.closest("button.line-card");
      if (!btn) return;
      const input = el.querySelector("#form-claim input[name=line]");
      if (!input) return;
      const cards = input.value ? input.value.split(",").map((s) => s.trim()).filter(Boolean) : [];
      cards.push(btn.dataset.card);
      input.value = cards.join(", ");
      btn.disabled = true;
    });
    // From the last event this page shows: only what is newer reloads it.
    follow("/api/feed?prefix=" + encodeURIComponent(stream) + "&after=" + el.dataset.position,
           (e) => { if (e.stream === stream) setTimeout(() => location.reload(), 300); });
  }

  function committee(el) {
    kept();
    forms(el, el.dataset.csrf, (form) => form.dataset.stream, () => setTimeout(() => location.reload(), 300));
    live("");
  }

  // No inline script (the Content-Security-Policy allows none): each page says what it
  // is with data-live="..." and this file starts it.
  function boot() {
    for (const sel of document.querySelectorAll("select[data-submit-on-change]")) {
      sel.addEventListener("change", () => sel.form.submit());
    }
    const el = document.querySelector("[data-live]");
    if (!el) return;
    const kind = el.dataset.live;
    if (kind === "table") table(el, el.dataset.token);
    else if (kind === "console") console_(el, el.dataset.panelUrl, el.dataset.prefix);
    else if (kind === "board") board(el);
    else if (kind === "committee") committee(el);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();

  return {post, follow, table, console: console_, board, committee, playerText};
})();
