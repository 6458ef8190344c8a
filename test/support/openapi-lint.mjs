// Lints an OpenAPI document with Redocly's recommended rules. Reads the document (JSON) on stdin,
// writes {problems: [{ruleId, severity, message, pointer}]} on stdout. A separate process because
// @redocly/openapi-core is an ES module, which Jest's CommonJS module system cannot load.
import { createConfig, lintFromString } from '@redocly/openapi-core';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const source = Buffer.concat(chunks).toString('utf8');
const config = await createConfig({ extends: ['recommended'] });
const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
process.stdout.write(
  JSON.stringify({
    problems: problems.map((problem) => ({
      ruleId: problem.ruleId,
      severity: problem.severity,
      message: problem.message,
      pointer: problem.location[0]?.pointer,
    })),
  }),
);
