import { createHash } from "node:crypto";

/**
 * Where the converter puts a task's image (label_studio_sdk `_extensions/label_studio_tools/core/utils/io.py`
 * `get_local_path` and `download_and_cache`), for a converter that never downloads: the mock has no
 * media and no network, as a server whose downloads fail. Uploaded, local-storage and cloud files
 * need the server's own URL (`hostname`: the request's for the one-step export, none for a snapshot
 * download); without it the lookup raises and the caller keeps the task's value as it is.
 */

/** `concat_urls`: `base.rstrip("/") + "/" + url.lstrip("/")`. */
function concat(base: string, url: string): string {
  let end = base.length;
  while (end > 0 && base.charCodeAt(end - 1) === 0x2f) end--;
  let start = 0;
  while (start < url.length && url.charCodeAt(start) === 0x2f) start++;
  return `${base.slice(0, end)}/${url.slice(start)}`;
}

/** `os.path.basename`. */
export const basename = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** The path part of a URL as `urllib.parse.urlparse` splits it (scheme and netloc off, query and fragment off). */
function urlPath(url: string): string {
  // urlsplit: leading C0 controls and spaces off, then every tab, CR and LF.
  let start = 0;
  while (start < url.length && url.charCodeAt(start) <= 0x20) start++;
  let rest = url.slice(start).replace(/[\t\r\n]/g, "");
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length);
  if (rest.startsWith("//")) {
    const end = rest.slice(2).search(/[/?#]/);
    rest = end < 0 ? "" : rest.slice(2 + end);
  }
  const cut = rest.search(/[?#]/);
  return cut < 0 ? rest : rest.slice(0, cut);
}

/**
 * The local path `get_local_path` returns under `cacheDir` (`images` in the output), or undefined
 * where it raises (an uploaded, local-storage or cloud file without the server's URL).
 */
export function cachedPath(url: string, cacheDir: string, hostname: string | undefined, taskId: unknown): string | undefined {
  let full = url.startsWith("upload") || url.startsWith("/upload") ? `/data${url.startsWith("/") ? "" : "/"}${url}` : url;
  const uploaded = full.startsWith("/data/upload");
  const localStorage = full.startsWith("/data/") && full.includes("?d=");
  const cloud = full.startsWith("s3:") || full.startsWith("gs:") || full.startsWith("azure-blob:");
  if (uploaded || localStorage || cloud) {
    if (!hostname) return undefined;
    if (cloud && (taskId === null || taskId === undefined)) return undefined;
    full = cloud ? concat(hostname, `/tasks/${String(taskId)}/presign/?fileuri=${full}`) : concat(hostname, full);
  }
  const name = localStorage ? basename(full.split("?d=")[1] ?? "") : cloud ? basename(full) : basename(urlPath(full));
  const hash = createHash("md5").update(full, "utf8").digest("hex").slice(0, 8);
  return `${cacheDir}/${hash}__${name}`;
}
