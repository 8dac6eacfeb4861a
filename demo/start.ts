import { createLogger } from '../shared/server/index.ts';
import { ConfigError, readDemoConfig, type DemoConfig } from './config.ts';
import { runDemo } from './run-demo.ts';

/** `npm start`: the whole of Parley on one machine, with no other service. */
let config: DemoConfig;
try {
  config = readDemoConfig(process.env);
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
}
const logger = createLogger('parley', config.logLevel);
try {
  const demo = await runDemo(config, logger);
  const lines = [
    '',
    `  Parley is running: ${demo.url}`,
    `  Engine (AI conversation API): ${demo.engineUrl}/v1`,
    `  Sandbox site key: ${demo.siteKey}`,
    `  Client API inbox: ${demo.url}/public/api/v1/inboxes/${demo.inboxIdentifier}`,
    `  Helpdesk: ${demo.url}/platform/api/v1 and ${demo.url}/api/v1 (account ${demo.accountId}; document at ${demo.url}/helpdesk/openapi.json)`,
    `  AI brain: ${config.llm ? `LLM ${config.llm.model} at ${config.llm.baseUrl}` : 'retrieval from the knowledge base (set LLM_BASE_URL and LLM_MODEL for an LLM)'}`,
    `  Agent console: ${demo.url}/console`,
    `  sign in as the demo agent (once, within 5 minutes): ${demo.agentSignInUrl}`,
    `  or with e-mail ${demo.agent.email} and password ${demo.agent.password}${config.demoAgentPassword ? ' (DEMO_AGENT_PASSWORD)' : ' (new at each start; set DEMO_AGENT_PASSWORD to keep one)'}`,
    ...(demo.mailFolder ? [`  e-mails to customers who left (no SMTP_URL set) are kept in ${demo.mailFolder}`] : []),
  ];
  if (demo.firstStart && !config.aiApiKeys && !config.demoApiKey) {
    lines.push(`  Sandbox API key (shown once, keep it safe): ${demo.apiKey}`);
  }
  if (demo.newPlatformToken)
    lines.push(`  Platform app token (shown once, keep it safe; header api_access_token): ${demo.newPlatformToken}`);
  lines.push('', '  Open the URL, click the chat button and ask "How do I return an item?"', '');
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = async () => {
    await demo.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  logger.fatal({ err: error }, 'Parley could not start');
  process.exit(1);
}
