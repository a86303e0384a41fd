// Browsers only allow pop-ups during the click itself, but the invite link arrives after the join
// request. So a blank tab is opened synchronously on click and pointed at the invite afterwards.

export interface InviteTab {
  go(url: string): void;
  close(): void;
}

export function openInviteTab(): InviteTab {
  let tab: Window | null = null;
  try {
    tab = window.open('about:blank', '_blank');
  } catch {
    tab = null;
  }
  return {
    go(url) {
      if (tab && !tab.closed) {
        // Cut the link back to this page (what 'noopener' would do) before leaving for Discord.
        tab.opener = null;
        tab.location.href = url;
      } else {
        window.open(url, '_blank', 'noopener');
      }
    },
    close() {
      if (tab && !tab.closed) tab.close();
    },
  };
}
