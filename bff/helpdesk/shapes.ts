import type { AccountRecord, Role } from '../store/accounts.ts';
import type { AgentBotRecord } from '../store/agent-bots.ts';
import type { AuditLogRecord } from '../store/audit-log.ts';
import type { UserRecord } from '../store/users.ts';
import type { AccountView, AgentBot, Person, PlatformAccount, User } from './schemas.ts';

/** The helpdesk's records as its APIs show them (Chatwoot's field names). */

export const platformAccountShape = (account: AccountRecord): PlatformAccount => ({
  id: account.id,
  name: account.name,
  locale: account.locale,
  domain: account.domain,
  support_email: account.supportEmail,
  status: account.status,
  custom_attributes: account.customAttributes,
  features: account.features,
  created_at: account.createdAt.toISOString(),
});

export const accountViewShape = (account: AccountRecord, role: Role | undefined): AccountView => ({ ...platformAccountShape(account), role: role ?? null });

export const personShape = (user: UserRecord): Person => ({
  id: user.id,
  uid: user.email,
  name: user.name,
  available_name: user.displayName ?? user.name,
  display_name: user.displayName,
  email: user.email,
  confirmed: true,
  custom_attributes: user.customAttributes,
});

export const userShape = (user: UserRecord, accounts: { id: number; name: string; role: Role }[], accessToken?: string): User => ({
  ...personShape(user),
  accounts,
  ...(accessToken ? { access_token: accessToken } : {}),
});

export const agentBotShape = (bot: AgentBotRecord, accessToken?: string): AgentBot => ({
  id: bot.id,
  name: bot.name,
  description: bot.description,
  account_id: bot.accountId,
  outgoing_url: bot.outgoingUrl,
  bot_type: 'webhook',
  ...(accessToken ? { access_token: accessToken } : {}),
});

export const auditLogShape = (entry: AuditLogRecord) => ({
  id: entry.id,
  auditable_id: entry.auditableId,
  auditable_type: entry.auditableType,
  action: entry.action,
  audited_changes: entry.auditedChanges,
  user_id: entry.userId,
  user_type: entry.userType,
  username: entry.username,
  associated_id: entry.accountId,
  associated_type: 'Account' as const,
  remote_address: entry.remoteAddress,
  created_at: Math.floor(entry.createdAt.getTime() / 1000),
});
