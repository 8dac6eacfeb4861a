import { createAccountService, type AccountServiceDeps } from './account-service.ts';
import { createAccountUserService } from './account-user-service.ts';
import { createAgentBotService, type AgentBotServiceDeps } from './agent-bot-service.ts';
import { createAuditService } from './audit-service.ts';
import { createSignInService } from './sign-in-service.ts';
import { createUserService } from './user-service.ts';
import type { OnAccessChanged } from './store/credentials.ts';

/** What the helpdesk is built from: what its accounts and agent bots need, less the audit log made here. */
export type HelpdeskServiceDeps = Omit<AccountServiceDeps, 'record'> &
  Omit<AgentBotServiceDeps, 'record'> & { onAccessChanged: OnAccessChanged };

/**
 * The helpdesk's administration, one service per resource: accounts, account users, users, sign-in,
 * agent bots and the audit log. Changes to an account are written to its audit log in the
 * transaction that makes them, so the audit service is built first. The Platform and Application
 * routes take the whole as one object.
 */
export function createHelpdeskService(deps: HelpdeskServiceDeps) {
  const { sql, now, policy, secrets, engineAccounts, onAccountClosed, onAccessChanged } = deps;
  const audit = createAuditService({ sql, now });
  const { record } = audit;
  return {
    ...createAccountService({ sql, now, engineAccounts, record, onAccountClosed }),
    ...createAccountUserService({ sql, now, record, onAccessChanged }),
    ...createUserService({ sql, now, onAccessChanged }),
    ...createSignInService({ sql, now }),
    ...createAgentBotService({ sql, now, policy, secrets, record, onAccessChanged }),
    auditLogs: audit.auditLogs,
  };
}

export type HelpdeskService = ReturnType<typeof createHelpdeskService>;
