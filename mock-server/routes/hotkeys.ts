import { hotkeys, hotkeysError } from "../../src/contract/index.js";
import { render } from "../../src/contract/render.js";
import { ServerException } from "../../src/emulation/exceptions.js";
import { PY_WHITESPACE, pyStrip } from "../../src/emulation/python-text.js";
import { QueryDict } from "../../src/emulation/query-dict.js";
import { isPlainObject, type JsonValue } from "../../src/vocabulary/json.js";
import { ok, type Handler, type MockContext } from "../http.js";
import { drfMessages } from "../drf/fields.js";
import { validateWrite, writeInput, type CustomRules, type WriteInput } from "../drf/serializer.js";

/**
 * The caller's keyboard shortcuts (label_studio/users/api.py `UserHotkeysAPI`, `HotkeysSerializer` in
 * users/serializers.py): `GET` answers the stored `custom_hotkeys` when they still pass the serializer (else `{}`);
 * `PATCH` replaces them. Every authenticated user reads and writes only their own. The view answers a refused body
 * itself (`{"error": "Invalid hotkeys configuration", "details": <serializer errors>}`, 400) and turns any
 * exception, a body it cannot parse included, into a 500 `{"error": "Failed to update hotkeys configuration"}`.
 */

/** `HotkeysSerializer`'s limits, as the server spells them. */
const HOTKEY_RULES = {
  maxHotkeys: 200,
  maxActionKeyLength: 100,
  maxKeyComboLength: 50,
  /** A modifier part longer than this must be one of `modifiers`. */
  maxModifierLength: 20,
  dangerous: [
    "ctrl+alt+delete",
    "cmd+alt+escape",
    "alt+f4",
    "ctrl+alt+esc",
    "cmd+option+esc",
    "ctrl+shift+esc",
    "cmd+shift+q",
    "alt+tab",
    "cmd+tab",
    "ctrl+alt+t",
    "cmd+space",
  ],
  modifiers: ["ctrl", "cmd", "command", "alt", "option", "shift", "meta"],
} as const;

/** `_validate_key_format`'s `[a-zA-Z0-9\+\-\s\[\]\\;\'\".,/`~!@#$%^&*()_={}|:<>?]+` (`\s`: Python's Unicode whitespace). */
const KEY_CHARS = new RegExp(`^[a-zA-Z0-9+\\-${PY_WHITESPACE}[\\]\\\\;'".,/\`~!@#$%^&*()_={}|:<>?]+$`);

/** Python's `len()`: code points. */
const pyLen = (s: string) => [...s].length;

/** `validate_custom_hotkeys`: the first problem, in the serializer's order, or undefined. */
export function hotkeysProblem(custom: Readonly<Record<string, unknown>>): string | undefined {
  const entries = Object.entries(custom);
  if (entries.length > HOTKEY_RULES.maxHotkeys) return `Cannot define more than ${HOTKEY_RULES.maxHotkeys} custom hotkeys`;
  for (const [action, data] of entries) {
    if (action === "") return `Action key '${action}' must be a non-empty string`;
    if (pyLen(action) > HOTKEY_RULES.maxActionKeyLength) {
      return `Action key '${action}' is too long (max ${HOTKEY_RULES.maxActionKeyLength} characters)`;
    }
    const colon = action.indexOf(":");
    if (colon < 0) return `Action key '${action}' must be in 'section:action' format`;
    if (pyStrip(action.slice(0, colon)) === "" || pyStrip(action.slice(colon + 1)) === "") {
      return `Action key '${action}' must have non-empty section and action parts`;
    }
    if (!isPlainObject(data)) return `Hotkey data for '${action}' must be a dictionary`;
    if (!Object.hasOwn(data, "key")) return `Missing 'key' in hotkey data for '${action}'`;
    const combo = data["key"];
    if (typeof combo !== "string" || combo === "") return `Key combination for '${action}' must be a non-empty string`;
    if (pyLen(combo) > HOTKEY_RULES.maxKeyComboLength) {
      return `Key combination for '${action}' is too long (max ${HOTKEY_RULES.maxKeyComboLength} characters)`;
    }
    if ((HOTKEY_RULES.dangerous as readonly string[]).includes(pyStrip(combo.toLowerCase()))) {
      return `Key combination '${combo}' is not allowed for security reasons`;
    }
    if (Object.hasOwn(data, "active") && typeof data["active"] !== "boolean") return `Active flag for '${action}' must be a boolean`;
    if (!KEY_CHARS.test(combo)) return `Key combination '${combo}' for '${action}' contains invalid characters`;
    const parts = combo.split("+").map(pyStrip);
    for (const part of parts.slice(0, -1)) {
      if (!(HOTKEY_RULES.modifiers as readonly string[]).includes(part.toLowerCase()) && pyLen(part) > HOTKEY_RULES.maxModifierLength) {
        return `Invalid modifier or key '${part}' in key combination '${combo}'`;
      }
    }
  }
  return undefined;
}

const rules: CustomRules = {
  hotkeys: (value) => {
    // A DictField: anything but a dict is refused before `validate_custom_hotkeys` runs.
    if (!isPlainObject(value)) return { errors: [drfMessages.notADictField(value)] };
    const problem = hotkeysProblem(value);
    return problem === undefined ? { value } : { errors: [problem] };
  },
};

/**
 * DRF's `DictField.get_value` for a form: `html.parse_html_dict` under the field's name (`custom_hotkeys.<key>`),
 * then again under no prefix in `to_internal_value`, so only `custom_hotkeys..<key>` fields reach the dict, each
 * as its last value (a text or a file: never a valid hotkey).
 */
function formInput(form: QueryDict): WriteInput {
  const prefix = "custom_hotkeys..";
  const dict: Record<string, unknown> = {};
  for (const key of form.keys()) if (key.startsWith(prefix) && key.length > prefix.length) dict[key.slice(prefix.length)] = form.get(key);
  return { custom_hotkeys: dict };
}

type Shortcuts = { [key: string]: JsonValue };

/** `HotkeysSerializer(data=…).is_valid()`: the validated shortcuts, or the serializer's errors. */
function validated(input: unknown, ctx: MockContext): { readonly custom_hotkeys: Shortcuts } | { readonly errors: Shortcuts } {
  try {
    const body = input instanceof QueryDict ? formInput(input) : writeInput(input);
    const written = validateWrite(hotkeys, body, { partial: false, strict: false, store: ctx.store, relations: {}, rules });
    return { custom_hotkeys: written.custom_hotkeys as Shortcuts };
  } catch (error) {
    if (error instanceof ServerException && error.error.validationErrors) return { errors: error.error.validationErrors as Shortcuts };
    throw error;
  }
}

/** `GET /api/current-user/hotkeys/`: the stored shortcuts as the serializer validates them; stored ones it refuses read as `{}`. */
export const getHotkeys: Handler = (req, ctx) => {
  const stored = validated({ custom_hotkeys: req.user.custom_hotkeys ?? {} }, ctx);
  return ok(render(hotkeys, { custom_hotkeys: "errors" in stored ? {} : stored.custom_hotkeys }));
};

/** `PATCH /api/current-user/hotkeys/`: every shortcut at once (what is not sent is gone), answered as stored. */
export const updateHotkeys: Handler = (req, ctx) => {
  let body: unknown;
  try {
    // `request.data` is read inside the view's `try`: a body DRF cannot parse becomes the view's own 500.
    body = req.body;
  } catch (error) {
    if (error instanceof ServerException) return { status: 500, body: { error: "Failed to update hotkeys configuration" } };
    throw error;
  }
  const result = validated(body, ctx);
  if ("errors" in result)
    return { status: 400, body: render(hotkeysError, { error: "Invalid hotkeys configuration", details: result.errors }) };
  ctx.store.update("users", req.user.id, { custom_hotkeys: result.custom_hotkeys });
  return ok(render(hotkeys, result));
};
