/**
 * The JSON Schema (2020-12) of the scorecard dataset, written beside it as
 * docs/scorecard/dataset/scorecard.schema.json so a reader can validate the file
 * without candor.
 */
const finding = {
  type: 'object',
  additionalProperties: false,
  required: ['source', 'rule', 'severity', 'message'],
  properties: {
    source: { enum: ['lint', 'observe'], description: 'Which check made the finding.' },
    rule: { type: 'string', description: 'The rule id (`observe/read-only-wrote`).' },
    severity: { enum: ['error', 'warning', 'info'] },
    message: { type: 'string' },
    judgement: {
      enum: ['right', 'wrong'],
      description: "An error-level finding's hand judgement against the server's source (judgements.json).",
    },
  },
};
const count = { type: 'integer', minimum: 0 };
const hint = { type: 'boolean' };

export const DATASET_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://github.com/candor-mcp/candor/blob/main/docs/scorecard/dataset/scorecard.schema.json',
  title: 'candor scorecard dataset',
  type: 'object',
  additionalProperties: false,
  required: ['datasetVersion', 'description', 'measured', 'figures', 'servers'],
  properties: {
    datasetVersion: { const: 1 },
    description: { type: 'string' },
    measured: { type: 'string', description: "The newest report's date (ISO 8601)." },
    figures: {
      type: 'array',
      description: 'Headline figures per category (the list’s section headings), then over all servers.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['category', 'servers', 'scanned', 'tools', 'withHints', 'exercised', 'contradicting'],
        properties: {
          category: { type: 'string' },
          servers: count,
          scanned: count,
          tools: count,
          withHints: { ...count, description: 'Tools declaring at least one of the four hints.' },
          exercised: { ...count, description: 'Tools candor observe called successfully at least once.' },
          contradicting: { ...count, description: 'Tools whose observed effects contradict their hints.' },
        },
      },
    },
    servers: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['target', 'category', 'scanned', 'tools', 'findings'],
        properties: {
          target: { type: 'string', description: 'As the list names it: name@version, or a server.json.' },
          category: { type: 'string' },
          package: { type: 'string' },
          version: { type: 'string' },
          scanned: { type: 'boolean' },
          error: { type: 'string', description: 'Why the server could not be scanned.' },
          protocolVersion: { type: 'string' },
          verdict: { type: 'string' },
          candorVersion: { type: 'string' },
          date: { type: 'string' },
          findings: { type: 'array', items: finding, description: 'Findings about the server as a whole.' },
          tools: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['name', 'declared', 'observed', 'exercised', 'verdict', 'findings'],
              properties: {
                name: { type: 'string' },
                declared: {
                  type: 'object',
                  additionalProperties: false,
                  description: 'The hints the tool declares; an absent hint takes the spec’s default.',
                  properties: { readOnlyHint: hint, destructiveHint: hint, idempotentHint: hint, openWorldHint: hint },
                },
                observed: { type: 'array', items: { type: 'string' } },
                exercised: { type: 'boolean' },
                notExercisedReason: { type: 'string' },
                verdict: { enum: ['consistent', 'contradicts', 'not exercised'] },
                findings: { type: 'array', items: finding },
              },
            },
          },
        },
      },
    },
  },
} as const;
