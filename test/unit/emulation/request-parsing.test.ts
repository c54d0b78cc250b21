import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { decode, lookupCodec, streamRead, UnicodeDecodeError } from "../../../src/emulation/codecs.js";
import { DrfApiException, PyException } from "../../../src/emulation/exceptions.js";
import { isFormMediaType, parseHeaderParameters, selectParser } from "../../../src/emulation/media-type.js";
import { parseMultipart } from "../../../src/emulation/multipart.js";
import { parseFormBody, pyUnquote } from "../../../src/emulation/query-dict.js";
import { requestData } from "../../../src/emulation/request-data.js";
import { thrown } from "../../helpers/thrown.js";

const bytes = (...parts: (string | number)[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === "number" ? [p] : [...Buffer.from(p, "utf8")])));

describe("Python's UTF-8 decoder (codecs)", () => {
  // str(exc) of b.decode("utf-8") in CPython.
  const errors: readonly (readonly [Uint8Array, string])[] = [
    [bytes(0xff), "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"],
    [bytes("ab", 0x80), "'utf-8' codec can't decode byte 0x80 in position 2: invalid start byte"],
    [bytes(0xc0, 0xaf), "'utf-8' codec can't decode byte 0xc0 in position 0: invalid start byte"],
    [bytes("a", 0xe2, 0x28, 0xa1), "'utf-8' codec can't decode byte 0xe2 in position 1: invalid continuation byte"],
    [bytes(0xf0, 0x9f, 0x98, "("), "'utf-8' codec can't decode bytes in position 0-2: invalid continuation byte"],
    [bytes(0xed, 0xa0, 0x80), "'utf-8' codec can't decode byte 0xed in position 0: invalid continuation byte"],
    [bytes(0xe0, 0x80, 0x80), "'utf-8' codec can't decode byte 0xe0 in position 0: invalid continuation byte"],
    [bytes(0xf4, 0x90, 0x80, 0x80), "'utf-8' codec can't decode byte 0xf4 in position 0: invalid continuation byte"],
    [bytes("x", 0xe2, 0x82), "'utf-8' codec can't decode bytes in position 1-2: unexpected end of data"],
  ];
  test.each(errors)("%o → %s", (input, message) => {
    expect(thrown(UnicodeDecodeError, () => decode(input, "utf-8")).message).toBe(message);
  });

  test("a stream read drops a sequence cut off by the end (final=False), as DRF's reader does", () => {
    expect(streamRead(bytes('{"a": 1}', 0xe2, 0x82), "utf-8")).toBe('{"a": 1}');
    expect(streamRead(bytes("x", 0xed, 0xa0), "utf-8")).toBe("x");
    expect(thrown(UnicodeDecodeError, () => decode(bytes("x", 0xed, 0xa0), "utf-8")).message).toBe(
      "'utf-8' codec can't decode byte 0xed in position 1: invalid continuation byte",
    );
  });

  test("valid and invalid exactly where a WHATWG fatal decoder says so, with the same text", () => {
    const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), (input) => {
        let expected: string | undefined;
        try {
          expected = fatal.decode(input);
        } catch {
          expected = undefined;
        }
        if (expected === undefined) expect(() => decode(input, "utf-8")).toThrow(UnicodeDecodeError);
        else expect(decode(input, "utf-8")).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  test("a stream read: the whole text of valid bytes; else a decode error, or the text before a cut-off sequence", () => {
    const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), (input) => {
        let whole: string | undefined;
        try {
          whole = fatal.decode(input);
        } catch {
          whole = undefined;
        }
        if (whole !== undefined) {
          expect(streamRead(input, "utf-8")).toBe(whole);
          return;
        }
        let read: string;
        try {
          read = streamRead(input, "utf-8");
        } catch (error) {
          expect(error).toBeInstanceOf(UnicodeDecodeError);
          return;
        }
        // Only a cut-off sequence (at most 3 bytes) is dropped.
        const cuts = [1, 2, 3].filter((n) => n <= input.length).map((n) => input.subarray(0, input.length - n));
        const text = (prefix: Uint8Array) => {
          try {
            return fatal.decode(prefix);
          } catch {
            return undefined;
          }
        };
        expect(cuts.some((prefix) => text(prefix) === read)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  test("codec names: Python's aliases, normalised", () => {
    expect(["UTF-8", "utf8", "U8", "utf_8"].map(lookupCodec)).toEqual(["utf-8", "utf-8", "utf-8", "utf-8"]);
    expect(["ISO-8859-1", "latin1", "L1"].map(lookupCodec)).toEqual(["latin-1", "latin-1", "latin-1"]);
    expect(["US-ASCII", "ascii"].map(lookupCodec)).toEqual(["ascii", "ascii"]);
    expect(lookupCodec("utf-8-sig")).toBe("utf-8-sig");
    expect(lookupCodec("no-such-codec")).toBeUndefined();
    expect(thrown(UnicodeDecodeError, () => decode(bytes("ab", 0xe9), "ascii")).message).toBe(
      "'ascii' codec can't decode byte 0xe9 in position 2: ordinal not in range(128)",
    );
    expect(decode(bytes(0xe9), "latin-1")).toBe("é");
  });
});

describe("content negotiation (Django's parse_header_parameters, DRF's media type matching)", () => {
  test("header parameters: key lower-cased, names lower-cased, quoted values unquoted", () => {
    expect(parseHeaderParameters('Multipart/Form-Data; Boundary="a;b"; charset=UTF-8')).toEqual({
      key: "multipart/form-data",
      params: { boundary: "a;b", charset: "UTF-8" },
    });
    expect(parseHeaderParameters("")).toEqual({ key: "", params: {} });
  });

  const selected: readonly (readonly [string, string | undefined])[] = [
    ["application/json", "application/json"],
    ["APPLICATION/JSON; charset=utf-8", "application/json"],
    ["*/*", "application/json"],
    ["application/*", "application/json"],
    ["*/json", "application/json"],
    ["application/x-www-form-urlencoded;charset=UTF-8", "application/x-www-form-urlencoded"],
    ["multipart/form-data; boundary=x", "multipart/form-data"],
    ["multipart/*", "multipart/form-data"],
    ["text/plain", undefined],
    ["text/json", undefined],
    ["application/json-patch+json", undefined],
    ["multipart/mixed", undefined],
    ["", undefined],
  ];
  test.each(selected)("%j → %j", (type, parser) => {
    expect(selectParser(type)).toBe(parser);
  });

  test("form media types", () => {
    expect(isFormMediaType("application/x-www-form-urlencoded; charset=x")).toBe(true);
    expect(isFormMediaType("Multipart/Form-Data")).toBe(true);
    expect(isFormMediaType("application/json")).toBe(false);
  });
});

describe("form bodies (QueryDict, parse_qsl, unquote)", () => {
  test("repeated keys, blank values, empty fields skipped, + is a space, %XX in the body's charset", () => {
    const form = parseFormBody(bytes("a=1&a=2&b&&c=%E2%82%AC+x&=v"), "utf-8");
    expect(form.getList("a")).toEqual(["1", "2"]);
    expect(form.get("a")).toBe("2");
    expect(form.get("b")).toBe("");
    expect(form.get("c")).toBe("€ x");
    expect(form.get("")).toBe("v");
    expect(form.dict()).toEqual({ a: "2", b: "", c: "€ x", "": "v" });
    expect(parseFormBody(bytes("n=%E9"), "latin-1").get("n")).toBe("é");
  });

  test("unquote: malformed escapes kept, invalid UTF-8 replaced, non-ASCII passes through", () => {
    expect(pyUnquote("a%zz%2")).toBe("a%zz%2");
    expect(pyUnquote("%ff%41")).toBe("\ufffdA");
    expect(pyUnquote("é%20x")).toBe("é x");
  });

  test("undecodable form bytes fall back to latin-1 (QueryDict)", () => {
    expect(parseFormBody(bytes("k=", 0xe9), "utf-8").get("k")).toBe("é");
  });
});

describe("multipart bodies (Django's MultiPartParser)", () => {
  const type = "multipart/form-data; boundary=B";
  test("fields and files; files come after fields under one key", () => {
    const body = bytes(
      '--B\r\nContent-Disposition: form-data; name="f"; filename="dir/a.json"\r\nContent-Type: application/json\r\n\r\n[1]\r\n',
      '--B\r\nContent-Disposition: form-data; name="f"\r\n\r\nfield\r\n',
      '--B\r\nContent-Disposition: form-data; name=" g "\r\nContent-Transfer-Encoding: base64\r\n\r\naGk=\r\n--B--\r\n',
    );
    const data = parseMultipart(type, body, "utf-8", 1 << 20);
    expect(data.getList("f")[0]).toBe("field");
    expect(data.getList("f")[1]).toMatchObject({ kind: "file", name: "a.json", contentType: "application/json", size: 3 });
    expect(data.get("g")).toBe("hi");
  });
  test("Django's errors", () => {
    expect(thrown(PyException, () => parseMultipart("multipart/form-data", bytes("x"), "utf-8", 10)).message).toBe(
      "Invalid boundary in multipart: None",
    );
    expect(thrown(PyException, () => parseMultipart("Multipart/form-data; boundary=B", bytes("x"), "utf-8", 10)).message).toBe(
      "Invalid Content-Type: Multipart/form-data; boundary=B",
    );
    expect(thrown(PyException, () => parseMultipart(type, bytes(`--B\r\n${"h".repeat(1100)}`), "utf-8", 1 << 20)).message).toBe(
      "Request max total header size exceeded.",
    );
    const field = bytes('--B\r\nContent-Disposition: form-data; name="f"\r\n\r\n', "x".repeat(20), "\r\n--B--");
    expect(thrown(PyException, () => parseMultipart(type, field, "utf-8", 10)).pyClass).toBe("RequestDataTooBig");
  });
});

describe("request.data (DRF's Request._parse)", () => {
  const limits = { maxMemorySize: 1000 };
  test("no body: {} or an empty QueryDict for a form type; never a parse", () => {
    expect(requestData({ contentType: "text/plain", length: 0, bytes: new Uint8Array() }, limits)).toEqual({});
    const form = requestData({ contentType: "application/x-www-form-urlencoded", length: 0, bytes: new Uint8Array() }, limits);
    expect(form).toMatchObject({ size: 0 });
  });
  test("415 before the size check; the size check before parsing", () => {
    const tooBig = { length: 5000, bytes: undefined };
    expect(thrown(DrfApiException, () => requestData({ contentType: "text/csv", ...tooBig }, limits)).status).toBe(415);
    expect(thrown(PyException, () => requestData({ contentType: "application/json", ...tooBig }, limits)).message).toBe(
      "Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.",
    );
    const missing = thrown(DrfApiException, () => requestData({ contentType: undefined, length: 2, bytes: bytes("{}") }, limits));
    expect(missing.detail).toBe('Unsupported media type "text/plain" in request.');
  });
  test("a charset Python does not know is ignored (utf-8), as Django does", () => {
    expect(requestData({ contentType: "application/json; charset=klingon", length: 4, bytes: bytes('"é"') }, limits)).toBe("é");
  });
});
