/** Next's search params: one string per name (the first, when repeated), or undefined. */
export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function paramsOf(
  searchParams: SearchParams,
): Promise<Record<string, string | undefined>> {
  const params = await searchParams;
  const single: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(params)) {
    const first = Array.isArray(value) ? value[0] : value;
    single[name] = first === '' ? undefined : first;
  }
  return single;
}
