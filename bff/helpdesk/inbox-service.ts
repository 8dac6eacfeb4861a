import type { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { Queryable, Sql } from '../../shared/server/index.ts';
import {
  createInboxSiteKey,
  deleteAccountInbox,
  findAccountInbox,
  findInboxSiteKey,
  inboxMembers,
  insertAccountInbox,
  listAccountInboxes,
  listInboxSiteKeys,
  revokeSiteKey,
  rotateHmacToken,
  setInboxAgentBot,
  setInboxMembers,
  setSiteKeyOrigins,
  updateAccountInbox,
  type InboxChanges,
  type InboxRecord,
  type SiteKeyRecord,
} from './store/account-inboxes.ts';
import { listAccountUsers } from './store/accounts.ts';
import { ALWAYS_OPEN } from '../store/inbox-presentation.ts';
import { findAgentBot } from './store/agent-bots.ts';
import { changesBetween, writeAudit, type Actor } from './store/audit-log.ts';
import { findUser } from './store/users.ts';
import { MESSAGE_LIMITS } from '../widget/message-limits.ts';
import { personShape } from './shapes.ts';
import type {
  Agent,
  Inbox,
  InboxCreate,
  InboxFields,
  SiteKey,
  SiteKeyCreate,
} from '../../shared/schemas/helpdesk/index.ts';

const inboxChanges = (body: InboxFields): InboxChanges => ({
  name: body.name,
  greeting: body.greeting_message,
  greetingEnabled: body.greeting_enabled,
  color: body.widget_color,
  locale: body.locale,
  surveyEnabled: body.csat_survey_enabled,
  prechatEnabled: body.pre_chat_form_enabled,
  lockToSingleConversation: body.lock_to_single_conversation,
  workingHoursEnabled: body.working_hours_enabled,
  timezone: body.timezone,
  outOfOfficeMessage: body.out_of_office_message,
  hmacMandatory: body.hmac_mandatory,
  clientApiOrigins: body.allowed_origins,
  avatarUrl: body.avatar_url,
  welcomeTitle: body.welcome_title,
  welcomeTagline: body.welcome_tagline,
  replyTime: body.reply_time,
  suggestedQuestions: body.suggested_questions,
  greetingTranslations: body.greeting_translations,
  email: body.email,
  workingHours: body.working_hours,
  aiMessagesPerAddressPerMinute: body.ai_messages_per_address_per_minute,
});

export const inboxShape = (inbox: InboxRecord, hmacToken?: string): Inbox => ({
  id: inbox.displayId,
  account_id: inbox.accountId,
  name: inbox.name,
  channel_type: 'Channel::WebWidget',
  greeting_enabled: inbox.greetingEnabled,
  greeting_message: inbox.greeting,
  widget_color: inbox.color,
  locale: inbox.locale,
  csat_survey_enabled: inbox.surveyEnabled,
  pre_chat_form_enabled: inbox.prechatEnabled,
  lock_to_single_conversation: inbox.lockToSingleConversation,
  working_hours_enabled: inbox.workingHoursEnabled,
  timezone: inbox.timezone,
  out_of_office_message: inbox.outOfOfficeMessage,
  hmac_mandatory: inbox.hmacMandatory,
  inbox_identifier: inbox.identifier,
  allowed_origins: inbox.clientApiOrigins,
  agent_bot_id: inbox.agentBotId,
  created_at: inbox.createdAt.toISOString(),
  ...(hmacToken ? { hmac_token: hmacToken } : {}),
  avatar_url: inbox.presentation.avatarUrl,
  welcome_title: inbox.presentation.welcomeTitle,
  welcome_tagline: inbox.presentation.welcomeTagline,
  reply_time: inbox.presentation.replyTime,
  suggested_questions: inbox.presentation.suggestedQuestions,
  greeting_translations: inbox.presentation.greetingTranslations,
  email: inbox.presentation.email,
  working_hours: [...(inbox.presentation.workingHours ?? ALWAYS_OPEN)],
  ai_messages_per_address_per_minute: inbox.aiMessagesPerAddressPerMinute ?? MESSAGE_LIMITS.perAddressPerMinute,
});

export const siteKeyShape = (key: SiteKeyRecord, shown = false): SiteKey => ({
  id: key.id,
  environment: key.environment,
  key_prefix: `${key.key.slice(0, 12)}…`,
  ...(shown ? { key: key.key } : {}),
  allowed_origins: key.allowedOrigins,
  created_at: key.createdAt.toISOString(),
  revoked_at: key.revokedAt?.toISOString() ?? null,
});

/**
 * An account's inboxes, their site keys (a key is shown whole once, when made) and the people who
 * answer them. Every change is audited with its before and after.
 */
export function createInboxService({ sql, now }: { sql: Sql; now: () => Date }) {
  const audit = (
    db: Queryable,
    accountId: number,
    actor: Actor,
    type: string,
    id: number,
    action: 'create' | 'update' | 'destroy',
    before: object,
    after: object,
  ) =>
    writeAudit(
      db,
      {
        accountId,
        actor,
        auditableType: type,
        auditableId: id,
        action,
        changes: changesBetween(before as Record<string, unknown>, after as Record<string, unknown>),
      },
      now(),
    );

  async function inboxOf(accountId: number, displayId: number): Promise<InboxRecord> {
    const inbox = await findAccountInbox(sql, accountId, displayId);
    if (!inbox) throw new ParleyError('not_found', `No inbox ${displayId} in this account.`);
    return inbox;
  }

  async function keyOf(inbox: InboxRecord, id: number): Promise<SiteKeyRecord> {
    const key = await findInboxSiteKey(sql, inbox.id, id);
    if (!key) throw new ParleyError('not_found', `No site key ${id} on this inbox.`);
    return key;
  }

  async function agentsOf(accountId: number, userIds?: readonly number[]): Promise<Agent[]> {
    const members = await listAccountUsers(sql, accountId);
    const agents: Agent[] = [];
    for (const member of members) {
      if (userIds && !userIds.includes(member.userId)) continue;
      const user = await findUser(sql, member.userId);
      if (!user) continue;
      agents.push({ ...personShape(user), account_id: accountId, role: member.role });
    }
    return agents;
  }

  async function changeMembers(
    accountId: number,
    actor: Actor,
    inboxDisplayId: number,
    next: (current: number[]) => number[],
  ) {
    const inbox = await inboxOf(accountId, inboxDisplayId);
    const people = new Set((await listAccountUsers(sql, accountId)).map((member) => member.userId));
    const after = await sql.transaction(async (tx) => {
      const before = await inboxMembers(tx, inbox.id);
      const members = [...new Set(next(before))].sort((a, b) => a - b);
      const strangers = members.filter((id) => !people.has(id));
      if (strangers.length)
        throw new ParleyError('unprocessable', `Not people of this account: ${strangers.join(', ')}.`, {
          problems: [{ field: 'user_ids', message: 'not people of this account' }],
        });
      await setInboxMembers(tx, inbox.id, members);
      await audit(
        tx,
        accountId,
        actor,
        'InboxMember',
        inbox.displayId,
        'update',
        { user_ids: before },
        { user_ids: members },
      );
      return members;
    });
    // After the commit: the embedded store has one connection, which the transaction held.
    return { payload: await agentsOf(accountId, after) };
  }

  return {
    agentsOf,

    async list(accountId: number) {
      return { payload: (await listAccountInboxes(sql, accountId)).map((inbox) => inboxShape(inbox)) };
    },
    async get(accountId: number, displayId: number) {
      return inboxShape(await inboxOf(accountId, displayId));
    },
    async create(accountId: number, actor: Actor, body: z.infer<typeof InboxCreate>) {
      return sql.transaction(async (tx) => {
        const inbox = await insertAccountInbox(tx, accountId, { ...inboxChanges(body), name: body.name });
        await audit(tx, accountId, actor, 'Inbox', inbox.displayId, 'create', {}, inboxShape(inbox));
        const [row] = await tx.query<{ hmac_token: string }>('SELECT hmac_token FROM inboxes WHERE id = $1', [
          inbox.id,
        ]);
        return inboxShape(inbox, row!.hmac_token);
      });
    },
    async update(accountId: number, actor: Actor, displayId: number, body: InboxFields) {
      const before = await inboxOf(accountId, displayId);
      return sql.transaction(async (tx) => {
        const after = (await updateAccountInbox(tx, accountId, before.id, inboxChanges(body)))!;
        await audit(tx, accountId, actor, 'Inbox', displayId, 'update', inboxShape(before), inboxShape(after));
        return inboxShape(after);
      });
    },
    async remove(accountId: number, actor: Actor, displayId: number) {
      const before = await inboxOf(accountId, displayId);
      await sql.transaction(async (tx) => {
        await deleteAccountInbox(tx, before.id);
        await audit(tx, accountId, actor, 'Inbox', displayId, 'destroy', inboxShape(before), {});
      });
    },
    async rotateHmac(accountId: number, actor: Actor, displayId: number) {
      const inbox = await inboxOf(accountId, displayId);
      return sql.transaction(async (tx) => {
        const token = await rotateHmacToken(tx, inbox.id);
        // The key itself is never written to the log; that it changed is.
        await writeAudit(
          tx,
          {
            accountId,
            actor,
            auditableType: 'Inbox',
            auditableId: displayId,
            action: 'update',
            changes: { hmac_token: ['[hidden]', '[hidden]'] },
          },
          now(),
        );
        return inboxShape(inbox, token);
      });
    },

    async setAgentBot(accountId: number, actor: Actor, displayId: number, botId: number | null) {
      const before = await inboxOf(accountId, displayId);
      if (botId !== null && (await findAgentBot(sql, botId))?.accountId !== accountId) {
        throw new ParleyError('unprocessable', `No agent bot ${botId} in this account.`, {
          problems: [{ field: 'agent_bot', message: 'not a bot of this account' }],
        });
      }
      return sql.transaction(async (tx) => {
        await setInboxAgentBot(tx, before.id, botId);
        const after = { ...before, agentBotId: botId };
        await audit(tx, accountId, actor, 'Inbox', displayId, 'update', inboxShape(before), inboxShape(after));
        return inboxShape(after);
      });
    },

    async siteKeys(accountId: number, displayId: number) {
      return (await listInboxSiteKeys(sql, (await inboxOf(accountId, displayId)).id)).map((key) => siteKeyShape(key));
    },
    async createSiteKey(accountId: number, actor: Actor, displayId: number, body: z.infer<typeof SiteKeyCreate>) {
      const inbox = await inboxOf(accountId, displayId);
      return sql.transaction(async (tx) => {
        const key = await createInboxSiteKey(tx, inbox.id, body.environment, body.allowed_origins);
        await audit(tx, accountId, actor, 'SiteKey', key.id, 'create', {}, siteKeyShape(key));
        return siteKeyShape(key, true);
      });
    },
    async setSiteKeyOrigins(accountId: number, actor: Actor, displayId: number, keyId: number, origins: string[]) {
      const key = await keyOf(await inboxOf(accountId, displayId), keyId);
      if (key.environment === 'sandbox')
        throw new ParleyError(
          'unprocessable',
          'A sandbox site key works from any origin; only a live key lists origins.',
        );
      if (key.revokedAt) throw new ParleyError('unprocessable', 'This site key is revoked.');
      return sql.transaction(async (tx) => {
        await setSiteKeyOrigins(tx, key.id, origins);
        const after = { ...key, allowedOrigins: origins };
        await audit(tx, accountId, actor, 'SiteKey', key.id, 'update', siteKeyShape(key), siteKeyShape(after));
        return siteKeyShape(after);
      });
    },
    async revokeSiteKey(accountId: number, actor: Actor, displayId: number, keyId: number) {
      const key = await keyOf(await inboxOf(accountId, displayId), keyId);
      await sql.transaction(async (tx) => {
        await revokeSiteKey(tx, key.id, now());
        if (!key.revokedAt) await audit(tx, accountId, actor, 'SiteKey', key.id, 'destroy', siteKeyShape(key), {});
      });
    },

    async members(accountId: number, displayId: number) {
      const inbox = await inboxOf(accountId, displayId);
      return { payload: await agentsOf(accountId, await inboxMembers(sql, inbox.id)) };
    },
    addMembers: (accountId: number, actor: Actor, displayId: number, userIds: number[]) =>
      changeMembers(accountId, actor, displayId, (current) => [...current, ...userIds]),
    setMembers: (accountId: number, actor: Actor, displayId: number, userIds: number[]) =>
      changeMembers(accountId, actor, displayId, () => userIds),
    removeMembers: (accountId: number, actor: Actor, displayId: number, userIds: number[]) =>
      changeMembers(accountId, actor, displayId, (current) => current.filter((id) => !userIds.includes(id))),
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
