// The chat page of the Liaison web widget. Plain JS, no framework; every text from the server or the
// visitor is set with textContent, never parsed as HTML. The visitor token lives in localStorage so that
// a reload continues the conversation. Replies arrive live over server-sent events
// (/widget/v1/events); after every (re)connect the thread is re-fetched over REST. A visitor who started
// without a name or e-mail can say who they are later (PATCH /widget/v1/visitors/me), once.
(function () {
  'use strict';

  var TOKEN_KEY = 'liaison.widget.token';
  var ANONYMOUS_KEY = 'liaison.widget.anonymous'; // '1' while the visitor has not said who they are
  var PAGE = 100; // the server's page size of GET /widget/v1/messages

  var $ = function (id) { return document.getElementById(id); };
  var ui = {
    start: $('start'), name: $('name'), email: $('email'), startError: $('start-error'),
    startButton: $('start-button'), chat: $('chat'), thread: $('thread'), composer: $('composer'),
    text: $('text'), send: $('send'), sendError: $('send-error'), connection: $('connection'),
    notice: $('notice'), identify: $('identify'), identifyForm: $('identify-form'),
    identifyName: $('identify-name'), identifyEmail: $('identify-email'), identifyPhone: $('identify-phone'),
    identifyButton: $('identify-button'), identifyError: $('identify-error')
  };

  var token = null;
  var lastId = null;      // the id of the newest message shown (the REST cursor)
  var shown = new Map();  // message id -> list item
  var source = null;      // the EventSource
  var retryMs = 1000;
  var retryTimer = null;
  var generation = 0;     // a new visitor invalidates callbacks of the old one

  function load(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }
  function save(key, value) {
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
    } catch (e) { /* storage blocked: the conversation lasts as long as the page */ }
  }

  function ApiError(status, message) {
    this.status = status;
    this.message = message;
  }

  function api(method, path, body) {
    var headers = { 'Accept': 'application/json' };
    if (token) headers['Authorization'] = 'Bearer ' + token;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return fetch(path, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store'
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (json) {
        if (!response.ok || !json || json.success !== true) {
          var message = json && json.error && json.error.message ? json.error.message : response.statusText;
          throw new ApiError(response.status, message || 'Request failed');
        }
        return json.data;
      });
    }, function () {
      throw new ApiError(0, 'No connection to the server');
    });
  }

  function formatTime(iso) {
    var d = new Date(iso);
    if (isNaN(d.getTime())) return '';
    return d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  }

  function safeUrl(url) {
    try {
      var u = new URL(url, window.location.href);
      return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
    } catch (e) { return null; }
  }

  function fillBubble(bubble, m) {
    while (bubble.firstChild) bubble.removeChild(bubble.firstChild);
    if (m.text) bubble.appendChild(document.createTextNode(m.text));
    var url = m.mediaUrl ? safeUrl(m.mediaUrl) : null;
    if (url) {
      if (m.text) bubble.appendChild(document.createElement('br'));
      var a = document.createElement('a');
      a.href = url;
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      a.textContent = m.type === 'image' ? 'Image' : 'Attachment';
      bubble.appendChild(a);
    } else if (!m.text) {
      bubble.appendChild(document.createTextNode('[' + (m.type || 'message') + ']'));
    }
  }

  function metaText(m) {
    var parts = [];
    if (m.direction === 'outgoing' && m.sender && m.sender.name) parts.push(m.sender.name);
    parts.push(formatTime(m.createdAt));
    if (m.direction === 'outgoing' && m.status === 'failed') parts.push('not delivered');
    return parts.join(' · ');
  }

  // Adds a message or updates the one shown with that id (events and re-fetches may repeat one).
  function show(m) {
    if (!m || typeof m.id !== 'string') return;
    var item = shown.get(m.id);
    var fresh = !item;
    if (fresh) {
      item = document.createElement('li');
      item.className = 'msg ' + (m.direction === 'incoming' ? 'own' : 'agent');
      item.dataset.id = m.id;
      var bubble = document.createElement('div');
      bubble.className = 'bubble';
      var meta = document.createElement('div');
      meta.className = 'meta';
      item.appendChild(bubble);
      item.appendChild(meta);
      shown.set(m.id, item);
      ui.thread.appendChild(item);
      lastId = m.id;
    }
    item.dataset.status = m.status || '';
    fillBubble(item.firstChild, m);
    item.lastChild.textContent = metaText(m);
    item.lastChild.title = m.createdAt ? new Date(m.createdAt).toLocaleString() : '';
    if (fresh) ui.thread.scrollTop = ui.thread.scrollHeight;
  }

  function setConnection(text) {
    ui.connection.textContent = text;
  }

  function forget() {
    generation++;
    disconnect();
    token = null;
    lastId = null;
    shown.clear();
    while (ui.thread.firstChild) ui.thread.removeChild(ui.thread.firstChild);
    save(TOKEN_KEY, null);
    save(ANONYMOUS_KEY, null);
    ui.identify.hidden = true;
    ui.chat.hidden = true;
    ui.start.hidden = false;
    setConnection('');
  }

  function failed(error, target) {
    if (error && error.status === 401) {
      forget(); // the token is no longer valid: start over
      return;
    }
    target.textContent = error && error.message ? error.message : 'Something went wrong';
  }

  // Everything after the last message shown, page by page.
  function refetch() {
    var mine = generation;
    var path = '/widget/v1/messages' + (lastId ? '?after=' + encodeURIComponent(lastId) : '');
    return api('GET', path).then(function (items) {
      if (mine !== generation) return;
      items.forEach(show);
      if (items.length >= PAGE) return refetch();
    }, function (error) {
      if (mine !== generation) return;
      if (error.status === 404 && lastId) {
        lastId = null; // the cursor is unknown: read the whole thread again
        return refetch();
      }
      failed(error, ui.sendError);
    });
  }

  function disconnect() {
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
    if (source) { source.close(); source = null; }
  }

  function connect() {
    disconnect();
    if (!token) return;
    var mine = generation;
    var url = '/widget/v1/events?token=' + encodeURIComponent(token);
    if (lastId) url += '&lastEventId=' + encodeURIComponent(lastId);
    var es = new EventSource(url);
    source = es;
    es.onopen = function () {
      if (mine !== generation) return;
      retryMs = 1000;
      setConnection('');
      refetch();
    };
    es.addEventListener('message', function (event) {
      if (mine !== generation) return;
      try { show(JSON.parse(event.data)); } catch (e) { /* not ours */ }
    });
    es.addEventListener('conversation', function (event) {
      if (mine !== generation) return;
      try {
        var c = JSON.parse(event.data);
        ui.notice.hidden = c.status !== 'closed';
        ui.notice.textContent = c.status === 'closed' ? 'This conversation was closed. Write to open it again.' : '';
      } catch (e) { /* not ours */ }
    });
    es.onerror = function () {
      if (mine !== generation) return;
      setConnection('Reconnecting…');
      if (es.readyState === EventSource.CLOSED) {
        // refused (an invalid token, too many streams) or the server is gone: try again later;
        // a REST call tells whether the token still works.
        source = null;
        refetch();
        retryTimer = setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, 30000);
      }
      // otherwise EventSource reconnects by itself (with Last-Event-ID); onopen re-fetches
    };
  }

  function showChat() {
    ui.start.hidden = true;
    ui.chat.hidden = false;
    ui.identify.hidden = load(ANONYMOUS_KEY) !== '1';
    connect();
    ui.text.focus();
  }

  ui.start.addEventListener('submit', function (event) {
    event.preventDefault();
    ui.startError.textContent = '';
    ui.startButton.disabled = true;
    var body = {};
    if (ui.name.value.trim()) body.name = ui.name.value.trim();
    if (ui.email.value.trim()) body.email = ui.email.value.trim();
    api('POST', '/widget/v1/visitors', body).then(function (data) {
      token = data.token;
      save(TOKEN_KEY, token);
      save(ANONYMOUS_KEY, body.name || body.email ? null : '1');
      showChat();
    }, function (error) {
      failed(error, ui.startError);
    }).then(function () { ui.startButton.disabled = false; });
  });

  ui.identifyForm.addEventListener('submit', function (event) {
    event.preventDefault();
    ui.identifyError.textContent = '';
    var body = {};
    if (ui.identifyName.value.trim()) body.name = ui.identifyName.value.trim();
    if (ui.identifyEmail.value.trim()) body.email = ui.identifyEmail.value.trim();
    if (ui.identifyPhone.value.trim()) body.phone = ui.identifyPhone.value.trim();
    ui.identifyButton.disabled = true;
    api('PATCH', '/widget/v1/visitors/me', body).then(function () {
      save(ANONYMOUS_KEY, null);
      ui.identify.hidden = true;
    }, function (error) {
      if (error && error.status === 409) { // said already (on another tab)
        save(ANONYMOUS_KEY, null);
        ui.identify.hidden = true;
        return;
      }
      failed(error, ui.identifyError);
    }).then(function () { ui.identifyButton.disabled = false; });
  });

  function send() {
    var text = ui.text.value.trim();
    if (!text || ui.send.disabled) return;
    ui.sendError.textContent = '';
    ui.send.disabled = true;
    var mine = generation;
    api('POST', '/widget/v1/messages', { text: text }).then(function (m) {
      if (mine !== generation) return;
      ui.text.value = '';
      ui.notice.hidden = true;
      show(m);
    }, function (error) {
      failed(error, ui.sendError);
    }).then(function () { ui.send.disabled = false; ui.text.focus(); });
  }

  ui.composer.addEventListener('submit', function (event) {
    event.preventDefault();
    send();
  });
  ui.text.addEventListener('keydown', function (event) {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send();
    }
  });

  token = load(TOKEN_KEY);
  if (token) showChat();
  else ui.start.hidden = false;
})();
