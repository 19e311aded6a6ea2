import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../openapi/schema';
import { recordExchange } from './contract';

/** The generated client's paths (openapi/schema.d.ts, from the committed document). */
export type Api = Client<paths>;

/**
 * The typed client for e2e tests: openapi-fetch over the types `npm run client` generates
 * from the committed OpenAPI document, so a test that sends a field the document does not
 * have, or reads one it does not answer, fails the type check. Every answer is also held
 * against the document at run time, as the supertest answers are (contract-setup.ts).
 */
export function typedClient(baseUrl: string, token: string): Api {
  const api = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
  api.use({
    async onResponse({ request, response }) {
      const url = new URL(request.url);
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      recordExchange({ method: request.method, url: `${url.pathname}${url.search}`, status: response.status, headers, body: await response.clone().text() });
      return response;
    },
  });
  return api;
}
