// The demo's slash-command console on a guild page: pick a member, type `/farm`, see the bot's answer
// (ephemeral ones only for the member who ran them) and press its buttons — through the same
// INTERACTION_CREATE / callback / webhook path a real Discord client would cause.
import express, { type Request, type Router } from 'express';
import { html, raw, type RawHtml } from './html.ts';
import { bodyString, param, queryString } from './http-util.ts';
import { pressButtonAndWait, runCommandAndWait, type InteractionOutcome } from './interactions-control.ts';
import { MessageFlag, type SimEmbed, type SimInteractionMessage } from './interactions.ts';
import { SimError, type SimGuild, type SimState } from './state.ts';

const CONSOLE_STYLE = `
.console{margin-top:24px;border-top:1px solid #3f4147;padding-top:8px}
.msg{display:flex;gap:12px;padding:10px 0;border-bottom:1px solid #3f414780}
.msg .who{font-weight:600;color:#f2f3f5}
.msg .app{background:#5865f2;color:#fff;border-radius:3px;font-size:10px;font-weight:700;padding:1px 4px;margin-left:4px;vertical-align:middle}
.msg .body{flex:1;min-width:0;overflow-wrap:anywhere}
.msg .ran{color:#949ba4;font-size:13px;margin-bottom:2px}
.embed{border-left:4px solid #5865f2;background:#232428;border-radius:4px;padding:10px 12px;margin:6px 0;max-width:520px}
.embed .title{font-weight:700;color:#f2f3f5;margin-bottom:4px}
.embed .fields{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:8px;margin-top:8px}
.embed .field.wide{grid-column:1/-1}
.embed .fname{font-weight:700;font-size:13px;color:#f2f3f5}
.embed .fvalue{font-size:14px;white-space:pre-wrap}
.embed .footer{font-size:12px;color:#949ba4;margin-top:8px}
.buttons{display:flex;flex-wrap:wrap;gap:8px;margin:6px 0}
.buttons form{margin:0}
.buttons button,.buttons a.button{padding:6px 12px;font-size:14px}
.buttons button:disabled{opacity:.5;cursor:not-allowed}
.ephemeral{font-size:12px;color:#949ba4;margin-top:4px}
.loading{color:#949ba4;font-style:italic}
.cmd{display:grid;grid-template-columns:minmax(0,1fr);gap:4px}
@media (min-width:600px){.cmd{grid-template-columns:160px minmax(0,1fr) auto;align-items:end;gap:8px}.cmd button{margin-bottom:12px}}
.hint{font-size:13px;color:#949ba4}
code{background:#1e1f22;border-radius:3px;padding:1px 4px}
`;

/** Just enough of Discord's markdown for the bot's replies: **bold**, `code`, [text](url), new lines. */
export function renderMarkdown(text: string): RawHtml {
  const escaped = html`${text}`.html;
  const out = escaped
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2" target="_blank" rel="noopener">$1</a>')
    .replace(/\n/g, '<br>');
  return raw(out);
}

const BUTTON_CLASS: Record<number, string> = {
  1: '',
  2: 'secondary',
  3: 'success',
  4: 'danger',
  5: 'secondary',
};

function renderEmbed(embed: SimEmbed): RawHtml {
  const color = typeof embed.color === 'number' ? `#${embed.color.toString(16).padStart(6, '0')}` : '#5865f2';
  return html`<div class="embed" style="border-left-color:${color}">
    ${embed.title ? html`<div class="title">${renderMarkdown(embed.title)}</div>` : ''}
    ${embed.description ? html`<div>${renderMarkdown(embed.description)}</div>` : ''}
    ${
      embed.fields?.length
        ? html`<div class="fields">
            ${embed.fields.map(
              (f) =>
                html`<div class="field ${f.inline ? '' : 'wide'}">
                  <div class="fname">${renderMarkdown(f.name)}</div>
                  <div class="fvalue">${renderMarkdown(f.value)}</div>
                </div>`,
            )}
          </div>`
        : ''
    }
    ${embed.footer?.text ? html`<div class="footer">${embed.footer.text}</div>` : ''}
  </div>`;
}

function renderMessage(
  state: SimState,
  root: string,
  guild: SimGuild,
  message: SimInteractionMessage,
  viewerId: string | null,
): RawHtml {
  const ranBy = state.getUser(message.userId)?.username ?? message.userId;
  const canPress = viewerId !== null;
  return html`<div class="msg" id="m${message.id}">
    <span class="avatar" aria-hidden="true">B</span>
    <div class="body">
      <div class="ran">${ranBy} used <code>/${message.commandName}</code></div>
      <div>
        <span class="who">${state.botUser.globalName ?? state.botUser.username}</span
        ><span class="app">APP</span>
      </div>
      ${
        message.flags & MessageFlag.Loading
          ? html`<div class="loading">${state.botUser.username} is thinking…</div>`
          : ''
      }
      ${message.content ? html`<div>${renderMarkdown(message.content)}</div>` : ''}
      ${message.embeds.map(renderEmbed)}
      ${message.components.map(
        (row) =>
          html`<div class="buttons">
            ${row.components.map((b) =>
              b.style === 5
                ? html`<a class="button secondary" href="${b.url ?? '#'}" target="_blank" rel="noopener"
                    >${b.label ?? ''} ↗</a
                  >`
                : html`<form method="post" action="${root}guilds/${guild.id}/buttons">
                    <input type="hidden" name="user_id" value="${viewerId ?? ''}" />
                    <input type="hidden" name="message_id" value="${message.id}" />
                    <input type="hidden" name="custom_id" value="${b.custom_id ?? ''}" />
                    <button
                      type="submit"
                      class="${BUTTON_CLASS[b.style] ?? ''}"
                      ${b.disabled || !canPress ? html`disabled` : ''}
                    >
                      ${b.label ?? ''}
                    </button>
                  </form>`,
            )}
          </div>`,
      )}
      ${message.flags & MessageFlag.Ephemeral ? html`<div class="ephemeral">◉ Only you can see this</div>` : ''}
    </div>
  </div>`;
}

/** The console section of a guild page (`as` = the member whose view is shown). */
export function commandConsole(state: SimState, req: Request, guild: SimGuild): RawHtml {
  const root = `${req.baseUrl}/`;
  const members = Object.keys(guild.members)
    .map((id) => state.users.get(id))
    .filter((u) => u !== undefined);
  const asId = queryString(req, 'as');
  const viewer = members.find((u) => u.id === asId) ?? members[0];
  const notice = queryString(req, 'notice');
  const commands = [
    ...state.interactions.listCommands(guild.id),
    ...state.interactions
      .listCommands(null)
      .filter((c) => !state.interactions.listCommands(guild.id).some((g) => g.name === c.name)),
  ];
  const messages = state.interactions.visibleMessages(guild.id, viewer?.id ?? null, 12);
  return html`<style>
      ${raw(CONSOLE_STYLE)}
    </style>
    <section class="console" id="console" aria-label="Slash commands in #general">
      <h2># general</h2>
      ${guild.botJoinedAt ? '' : html`<p class="muted">The bot is not in this server: its commands are not available here.</p>`}
      ${messages.length === 0 ? html`<p class="muted">No commands run here yet. Try <code>/help</code>.</p>` : ''}
      ${messages.map((m) => renderMessage(state, root, guild, m, viewer?.id ?? null))}
      ${notice ? html`<p class="error" role="alert">${notice}</p>` : ''}
      <form method="post" action="${root}guilds/${guild.id}/commands" class="cmd">
        <div>
          <label for="cmd-user">Run as</label>
          <select id="cmd-user" name="user_id">
            ${members.map(
              (u) =>
                html`<option value="${u.id}" ${u.id === viewer?.id ? html`selected` : ''}>
                  ${u.username}
                </option>`,
            )}
          </select>
        </div>
        <div>
          <label for="cmd-text">Message #general</label>
          <input
            id="cmd-text"
            name="command"
            placeholder="/farm"
            autocomplete="off"
            required
            list="cmd-list"
          />
          <datalist id="cmd-list">
            ${commands.map((c) => html`<option value="/${c.name}">${c.description}</option>`)}
          </datalist>
        </div>
        <button type="submit">Send</button>
      </form>
      <p class="hint">
        ${commands.length} command(s) registered:
        ${commands.map((c, i) => html`${i > 0 ? ', ' : ''}<code>/${c.name}</code>`)}. Options as
        <code>/farm search:pixel</code>.
      </p>
    </section>`;
}

/** "/farm search:pixel raiders" → { command: 'farm', options: { search: 'pixel raiders' } }. */
export function parseCommandLine(line: string): { command: string; options: Record<string, string> } {
  const trimmed = line.trim().replace(/^\//, '');
  const [command = '', ...rest] = trimmed.split(/\s+/);
  const options: Record<string, string> = {};
  let current: string | null = null;
  for (const word of rest) {
    const match = /^([\w-]{1,32}):(.*)$/.exec(word);
    if (match) {
      current = match[1]!;
      options[current] = match[2] ?? '';
    } else if (current) {
      options[current] = `${options[current]} ${word}`.trim();
    }
  }
  return { command: command.toLowerCase(), options };
}

function noticeFor(outcome: InteractionOutcome): string | undefined {
  if (outcome.refused.includes(10062) || outcome.callbacks.length === 0)
    return 'The application did not respond';
  return undefined;
}

export function createCommandPagesRouter(state: SimState): Router {
  const router = express.Router();
  const back = (req: Request, guildId: string, userId: string, notice?: string): string => {
    const query = new URLSearchParams({ as: userId });
    if (notice) query.set('notice', notice);
    return `${req.baseUrl}/guilds/${guildId}?${query.toString()}#console`;
  };

  router.post('/guilds/:guildId/commands', async (req, res, next) => {
    const guildId = param(req, 'guildId');
    const userId = bodyString(req, 'user_id') ?? '';
    const { command, options } = parseCommandLine(bodyString(req, 'command') ?? '');
    try {
      const outcome = await runCommandAndWait(state, { userId, guildId, command, options });
      res.redirect(303, back(req, guildId, userId, noticeFor(outcome)));
    } catch (err) {
      if (err instanceof SimError) res.redirect(303, back(req, guildId, userId, err.message));
      else next(err);
    }
  });

  router.post('/guilds/:guildId/buttons', async (req, res, next) => {
    const guildId = param(req, 'guildId');
    const userId = bodyString(req, 'user_id') ?? '';
    try {
      const outcome = await pressButtonAndWait(state, {
        userId,
        messageId: bodyString(req, 'message_id') ?? '',
        customId: bodyString(req, 'custom_id') ?? '',
      });
      res.redirect(303, back(req, guildId, userId, noticeFor(outcome)));
    } catch (err) {
      if (err instanceof SimError) res.redirect(303, back(req, guildId, userId, err.message));
      else next(err);
    }
  });
  return router;
}
