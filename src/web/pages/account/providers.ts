import type { components } from '../../../client/registry-client';
import type { WebContext } from '../../web-context';

export type ProviderDto = components['schemas']['ProviderDto'];

/** The forge instances people can sign in with; none when the API cannot say. */
export async function signInProviders(ctx: WebContext): Promise<{ providers: ProviderDto[]; callbackUrlTemplate: string | null }> {
  const answer = await ctx.api.GET('/api/auth/providers');
  return { providers: answer.data?.providers ?? [], callbackUrlTemplate: answer.data?.callbackUrlTemplate ?? null };
}

/** A date for tables: the same in every language, and short enough for a phone. */
export function shortDate(value: number | string | null): string {
  if (value === null) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}
