// The one Node.js type the declarations of dmq/mock-server use, so that the minimum-TypeScript
// check covers dmq's declarations (skipLibCheck off) without type-checking all of @types/node.
declare module "node:http" {
  export interface IncomingHttpHeaders {
    [header: string]: string | string[] | undefined;
  }
}
