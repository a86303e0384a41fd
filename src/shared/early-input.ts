// A server-rendered page is on screen, and can be typed into and clicked, before its JavaScript has
// loaded and React has hydrated it (a slow phone: seconds). Text typed into a field stays in the field,
// and React keeps it when it hydrates (it does not overwrite a hydrating input's value), but the
// component's state never hears of it: the field shows the text, the form is empty and its button stays
// disabled. A click on a button before hydration has no handler to reach: it is lost, or, on a form's
// submit button, the browser submits the form itself (a GET of the same page with the fields in the URL).
//
// This script, inline at the top of every server-rendered page (src/auth/spa-pages.ts; its hash is in
// the Content-Security-Policy: src/app.ts), holds the last click on a button and the last form
// submission inside the page until the page has hydrated; web/src/lib/early-input.ts then hands React
// what was typed (each field whose value is not the one it was rendered with) and replays that click.
// Links are left alone: the browser follows them as it always has.

/** What the script leaves on `window` for the app (web/src/lib/early-input.ts). */
export const EARLY_INPUT_GLOBAL = '__coinsyncEarlyInput';

/** The script's text (plain ES5: it runs before anything else, in every browser that shows the page). */
export const EARLY_INPUT_SCRIPT =
  '(function(){var q={last:null,done:false};' +
  'function hold(e){if(q.done)return;var t=e.target;' +
  "var hit=e.type==='submit'?t:t&&t.closest&&t.closest('button,input[type=submit],input[type=button],[role=button]');" +
  "var root=document.getElementById('root');if(!hit||!root||!root.contains(hit))return;" +
  'e.preventDefault();e.stopImmediatePropagation();q.last={type:e.type,target:hit};}' +
  "addEventListener('click',hold,true);addEventListener('submit',hold,true);" +
  "q.stop=function(){q.done=true;removeEventListener('click',hold,true);removeEventListener('submit',hold,true);return q.last;};" +
  `window.${EARLY_INPUT_GLOBAL}=q;})();`;
