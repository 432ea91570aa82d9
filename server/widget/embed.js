// The Liaison chat widget for any web site:
//   <script src="https://HOST/widget/embed.js" async></script>
// puts a floating chat button in the corner that opens the chat (an iframe of https://HOST/widget).
// Nothing of the host page is read; styles are set on our own elements only.
(function () {
  'use strict';
  if (window.__liaisonWidget) return;
  window.__liaisonWidget = true;

  var script = document.currentScript;
  var origin;
  try {
    origin = new URL(script && script.src ? script.src : '', window.location.href).origin;
  } catch (e) {
    return;
  }

  function css(element, styles) {
    for (var key in styles) element.style.setProperty(key, styles[key]);
  }

  function init() {
    var open = false;
    var frame = null;

    var button = document.createElement('button');
    button.type = 'button';
    button.setAttribute('aria-label', 'Open chat');
    button.setAttribute('aria-expanded', 'false');
    button.textContent = '\uD83D\uDCAC'; // speech balloon
    css(button, {
      position: 'fixed', right: '20px', bottom: '20px', width: '56px', height: '56px',
      'border-radius': '50%', border: '0', background: '#2d6cdf', color: '#fff',
      'font-size': '26px', 'line-height': '56px', 'text-align': 'center', cursor: 'pointer',
      'box-shadow': '0 4px 14px rgba(0,0,0,.25)', 'z-index': '2147483000', padding: '0', margin: '0'
    });

    function toggle() {
      open = !open;
      if (open && !frame) {
        frame = document.createElement('iframe');
        frame.src = origin + '/widget';
        frame.title = 'Chat';
        css(frame, {
          position: 'fixed', right: '20px', bottom: '88px', width: '360px', height: '520px',
          'max-width': 'calc(100vw - 40px)', 'max-height': 'calc(100vh - 108px)', border: '0',
          'border-radius': '12px', 'box-shadow': '0 8px 30px rgba(0,0,0,.25)', background: '#fff',
          'z-index': '2147483000'
        });
        document.body.appendChild(frame);
      }
      if (frame) frame.style.setProperty('display', open ? 'block' : 'none');
      button.setAttribute('aria-expanded', open ? 'true' : 'false');
      button.setAttribute('aria-label', open ? 'Close chat' : 'Open chat');
    }

    button.addEventListener('click', toggle);
    document.addEventListener('keydown', function (event) {
      if (open && event.key === 'Escape') toggle();
    });
    document.body.appendChild(button);
  }

  if (document.body) init();
  else document.addEventListener('DOMContentLoaded', init);
})();
