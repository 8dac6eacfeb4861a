import type { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { Queryable, SecretBox, Sql } from '../../shared/server/index.ts';
import {
  deleteAccountInbox,
  findAccountInbox,
  insertAccountInbox,
  listAccountInboxes,
  rotateHmacToken,
  setInboxAgentBot,
  updateAccountInbox,
  type InboxChanges,
  type InboxRecord,
} from './store/account-inboxes.ts';
import { ALWAYS_OPEN } from '../store/inbox-presentation.ts';
import { readInterviewOffer, writeInterviewOffer } from '../store/interview-offers.ts';
import { readCallsEnabled, writeCallsEnabled } from '../calls/calls-setting.ts';
import { findAgentBot } from './store/agent-bots.ts';
import { writeAudit, type Actor } from './store/audit-log.ts';
import { createAuditService, type RecordChange } from './audit-service.ts';
import { createInboxMemberService } from './inbox-member-service.ts';
import type { OnAccessChanged } from './store/credentials.ts';
import { createInboxSiteKeyService } from './inbox-site-key-service.ts';
import { MESSAGE_LIMITS } from '../widget/message-limits.ts';
import type { Inbox, InboxCreate, InboxFields } from '../../shared/schemas/helpdesk/index.ts';

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
  welcomeTitleTranslations: body.welcome_title_translations,
  welcomeTaglineTranslations: body.welcome_tagline_translations,
  suggestedQuestionsTranslations: body.suggested_questions_translations,
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
  welcome_title_translations: inbox.presentation.welcomeTitleTranslations,
  welcome_tagline_translations: inbox.presentation.welcomeTaglineTranslations,
  suggested_questions_translations: inbox.presentation.suggestedQuestionsTranslations,
  email: inbox.presentation.email,
  working_hours: [...(inbox.presentation.workingHours ?? ALWAYS_OPEN)],
  ai_messages_per_address_per_minute: inbox.aiMessagesPerAddressPerMinute ?? MESSAGE_LIMITS.perAddressPerMinute,
});

/** The inbox's shape with the research interview it offers (issue 29), kept apart (migration 035). */
const withOffer = async (db: Queryable, inbox: InboxRecord): Promise<Inbox> => ({
  ...inboxShape(inbox),
  interview_offer: await readInterviewOffer(db, inbox.id),
  calls_enabled: await readCallsEnabled(db, inbox.id),
});

/** Changes the inbox's interview offer when the update gives one (null removes it); the inbox's shapes before and after. */
async function changeInterviewOffer(
  tx: Queryable,
  before: InboxRecord,
  after: InboxRecord,
  offer: InboxFields['interview_offer'],
  calls: InboxFields['calls_enabled'],
): Promise<{ before: Inbox; after: Inbox }> {
  const was = await withOffer(tx, before);
  if (offer !== undefined) await writeInterviewOffer(tx, before.id, offer);
  if (calls !== undefined) await writeCallsEnabled(tx, before.id, calls);
  return {
    before: was,
    after: {
      ...inboxShape(after),
      interview_offer: offer === undefined ? was.interview_offer : offer,
      calls_enabled: calls ?? was.calls_enabled,
    },
  };
}

/** The account's inbox of that number, or not_found. */
async function inboxOf(sql: Sql, accountId: number, displayId: number): Promise<InboxRecord> {
  const inbox = await findAccountInbox(sql, accountId, displayId);
  if (!inbox) throw new ParleyError('not_found', `No inbox ${displayId} in this account.`);
  return inbox;
}

/** An inbox's own settings, its identity validation (HMAC) key (kept sealed in `secrets`) and its agent bot. */
function createInboxSettingsService({
  sql,
  now,
  record,
  secrets,
}: {
  sql: Sql;
  now: () => Date;
  record: RecordChange;
  secrets: SecretBox;
}) {
  return {
    async list(accountId: number) {
      return { payload: (await listAccountInboxes(sql, accountId)).map((inbox) => inboxShape(inbox)) };
    },
    async get(accountId: number, displayId: number) {
      return withOffer(sql, await inboxOf(sql, accountId, displayId));
    },
    async create(accountId: number, actor: Actor, body: z.infer<typeof InboxCreate>) {
      return sql.transaction(async (tx) => {
        const made = { ...inboxChanges(body), name: body.name };
        const { inbox, hmacToken } = await insertAccountInbox(tx, accountId, made, secrets);
        const shown = { before: {}, after: inboxShape(inbox) };
        await record(tx, { accountId, actor, type: 'Inbox', id: inbox.displayId, action: 'create', ...shown });
        return inboxShape(inbox, hmacToken);
      });
    },
    async update(accountId: number, actor: Actor, displayId: number, body: InboxFields) {
      const before = await inboxOf(sql, accountId, displayId);
      return sql.transaction(async (tx) => {
        const after = (await updateAccountInbox(tx, accountId, before.id, inboxChanges(body)))!;
        const shown = await changeInterviewOffer(tx, before, after, body.interview_offer, body.calls_enabled);
        await record(tx, { accountId, actor, type: 'Inbox', id: displayId, action: 'update', ...shown });
        return shown.after;
      });
    },
    async remove(accountId: number, actor: Actor, displayId: number) {
      const before = await inboxOf(sql, accountId, displayId);
      await sql.transaction(async (tx) => {
        await deleteAccountInbox(tx, before.id);
        const shown = { before: inboxShape(before), after: {} };
        await record(tx, { accountId, actor, type: 'Inbox', id: displayId, action: 'destroy', ...shown });
      });
    },
    async rotateHmac(accountId: number, actor: Actor, displayId: number) {
      const inbox = await inboxOf(sql, accountId, displayId);
      return sql.transaction(async (tx) => {
        const token = await rotateHmacToken(tx, inbox.id, secrets);
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
      const before = await inboxOf(sql, accountId, displayId);
      if (botId !== null && (await findAgentBot(sql, botId))?.accountId !== accountId) {
        throw new ParleyError('unprocessable', `No agent bot ${botId} in this account.`, {
          problems: [{ field: 'agent_bot', message: 'not a bot of this account' }],
        });
      }
      return sql.transaction(async (tx) => {
        await setInboxAgentBot(tx, before.id, botId);
        const shown = { before: inboxShape(before), after: inboxShape({ ...before, agentBotId: botId }) };
        await record(tx, { accountId, actor, type: 'Inbox', id: displayId, action: 'update', ...shown });
        return shown.after;
      });
    },
  };
}

/**
 * An account's inboxes, their site keys (a key is shown whole once, when made) and the people who
 * answer them. Every change is audited with its before and after.
 */
export function createInboxService({
  sql,
  now,
  secrets,
  onAccessChanged,
}: {
  sql: Sql;
  now: () => Date;
  secrets: SecretBox;
  onAccessChanged: OnAccessChanged;
}) {
  const { record } = createAuditService({ sql, now });
  const inboxOfAccount = (accountId: number, displayId: number) => inboxOf(sql, accountId, displayId);
  return {
    ...createInboxSettingsService({ sql, now, record, secrets }),
    ...createInboxSiteKeyService({ sql, now, record, inboxOf: inboxOfAccount }),
    ...createInboxMemberService({ sql, record, inboxOf: inboxOfAccount, onAccessChanged }),
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
