/** A request's query string as the routes read it (Express's simple parser): a repeated key is a list. */
export type Query = Readonly<Record<string, string | readonly string[] | undefined>>;
