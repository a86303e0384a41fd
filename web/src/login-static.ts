import './fonts.css';
import { clearSessionEnded, wasAccountDeleted, wasSessionEnded } from './lib/session-ended.ts';

// The prerendered login page (login.html, built by scripts/build/pages.ts from the same LoginPage
// component) is what a signed-out visitor gets: this script is all the JavaScript it loads. It does what
// the React page does on the client: shows the notice that applies and wires the sign-in button.
function showNotice(name: 'session-ended' | 'login-failed' | 'account-deleted'): void {
  document.querySelector(`[data-login-notice="${name}"]`)?.removeAttribute('hidden');
}

if (wasSessionEnded()) showNotice('session-ended');
if (new URLSearchParams(window.location.search).get('login') === 'failed') showNotice('login-failed');
if (wasAccountDeleted(window.location.search)) showNotice('account-deleted');

document.querySelector('[data-sign-in]')?.addEventListener('click', () => {
  clearSessionEnded();
  window.location.href = '/api/auth/discord';
});
