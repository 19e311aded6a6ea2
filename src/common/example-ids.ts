/**
 * The ids the request body examples of the document use, so that one example reads
 * like the next: Anna and Ben play a match in Tuesday's session, and so on. The tests
 * post every example through the routes' validation (test/openapi-examples.e2e-spec.ts).
 */
export const EXAMPLE_ID = {
  anna: '0190c3a2-0000-7000-8000-000000000001',
  ben: '0190c3a2-0000-7000-8000-000000000002',
  carla: '0190c3a2-0000-7000-8000-000000000003',
  dmitri: '0190c3a2-0000-7000-8000-000000000004',
  elena: '0190c3a2-0000-7000-8000-000000000005',
  farid: '0190c3a2-0000-7000-8000-000000000006',
  session: '0190c3a2-0000-7000-8000-0000000000a1',
  tournament: '0190c3a2-0000-7000-8000-0000000000b1',
} as const;
