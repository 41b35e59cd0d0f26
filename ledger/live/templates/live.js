// The live service's pages: post facts to the API, follow the feed (server-sent events).
"use strict";
const Live = (() => {
  const say = (text, kind) => {
    const box = document.getElementById("message");
    box.innerHTML = "";
    if (!text) return;
    const p = document.createElement("p");
    p.className = "msg " + (kind || "error");
    p.textContent = text;
    box.appendChild(p);
  };
  const live = (text) => { const el = document.getElementById("live"); if (el) el.textContent = text; };

  async function post(stream, facts, opts) {
    const headers = {"Content-Type": "application/json"};
    if (opts.token) headers["Authorization"] = "Bearer " + opts.token;
    if (opts.csrf) headers["X-CSRF-Token"] = opts.csrf;
    let url = "/api/streams/" + stream + "/events";
    if (opts.expected !== undefined && opts.expected !== null) url += "?expected_seq=" + opts.expected;
    const r = await fetch(url, {method: "POST", headers, body: JSON.stringify(facts), credentials: "same-origin"});
    let body = {};
    try { body = await r.json(); } catch (e) { body = {message: "HTTP " + r.status}; }
    return {ok: r.ok, status: r.status, body};
  }

  function follow(url, onEvent) {
    const es = new EventSource(url);
    es.onopen = () => live("live");
    es.onerror = () => live("reconnecting…");
    es.addEventListener("ledger", (e) => onEvent(JSON.parse(e.data)));
    // The director withdrew this device's access: the server ends the feed; say why.
    es.addEventListener("revoked", (e) => { es.close(); live("closed"); say(JSON.parse(e.data).message); });
    return es;
  }

  // Re-read a server-rendered panel, at most every 120 ms. When a feed event
  // asked for it, el.dataset.shown is then the newest position the panel shows.
  function refresher(el, url, after) {
    let timer = null;
    let latest = 0;
    return (event) => {
      if (event && event.position) latest = Math.max(latest, event.position);
      if (timer) return;
      timer = setTimeout(async () => {
        timer = null;
        const target = latest;
        const r = await fetch(url, {credentials: "same-origin"});
        if (r.ok) {
          el.innerHTML = await r.text();
          if (target) el.dataset.shown = String(Math.max(target, Number(el.dataset.shown || 0)));
          if (after) after();
        }
      }, 120);
    };
  }

  function table(el, token) {
    const refresh = refresher(el, "/table/" + token + "/panel");
    el.addEventListener("click", async (ev) => {
      const btn = ev.target.closest("button");
      if (!btn) return;
      if (!btn.dataset.fact) return;
      const panel = el.querySelector(".panel");
      const fact = JSON.parse(btn.dataset.fact);
      btn.disabled = true;
      const stream = btn.dataset.stream || panel.dataset.stream;
      const expected = Number(btn.dataset.seq || panel.dataset.seq);
      const res = await post(stream, [fact], {token, expected});
      btn.disabled = false;
      if (res.ok) say("");
      else if (res.status === 409) say("Someone logged at this table just now; the page is up to date again: please tap again.");
      else say(res.body.message || ("HTTP " + res.status));
      refresh(null);
    });
    el.addEventListener("submit", async (ev) => {
      const form = ev.target.closest("form.claim-form, form.fact-form");
      if (!form) return;
      ev.preventDefault();
      const panel = el.querySelector(".panel");
      const fact = form.classList.contains("fact-form") ? formFact(form)
        : {type: "ClaimMade", seat: form.seat.value, tricks: Number(form.tricks.value)};
      const res = await post(panel.dataset.stream, [fact], {token, expected: Number(panel.dataset.seq)});
      if (res.ok) say(form.classList.contains("fact-form") ? fact.type + " logged at seq " + res.body.seqs.join(", ") : "", "ok");
      else say(res.body.message || ("HTTP " + res.status));
      refresh();
    });
    follow("/api/feed?token=" + encodeURIComponent(token), refresh);
  }

  function formFact(form) {
    const fact = {type: form.dataset.type};
    for (const input of form.querySelectorAll("input, select, textarea")) {
      if (!input.name || input.value === "") continue;
      let v = input.value;
      if (input.dataset.json) { try { v = JSON.parse(v); } catch (e) { /* the ledger names the field */ } }
      else if (input.dataset.list) v = v.split(",").map((s) => s.trim()).filter(Boolean);
      else if (input.dataset.bool) v = v === "true";
      else if (input.type === "number" || input.dataset.number) v = Number(v);
      fact[input.name] = v;
    }
    return fact;
  }

  function forms(root, csrf, streamOf, done) {
    root.addEventListener("submit", async (ev) => {
      const form = ev.target.closest("form.director-form");
      if (!form) return;
      ev.preventDefault();
      const res = await post(streamOf(form), [formFact(form)], {csrf});
      if (res.ok) {
        const text = form.dataset.type + " recorded at seq " + res.body.seqs.join(", ");
        say(text, "ok");
        form.reset();
        sessionStorage.setItem("ledger-message", text);  // shown again after the reload
        done();
      }
      else say(res.body.message || ("HTTP " + res.status));
    });
  }

  function console_(el, panelUrl, prefix) {
    const refresh = refresher(el, panelUrl);
    follow("/api/feed?prefix=" + encodeURIComponent(prefix), refresh);
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

  return {post, follow, table, console: console_, board, committee};
})();
