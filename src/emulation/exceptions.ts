/**
 * The exceptions the server's code raises, as its exception handler (`label_studio/core/utils/common.py`
 * `custom_exception_handler`) tells them apart: DRF's APIExceptions answer their own status with their
 * `detail`; every other Python exception is a 500 whose `detail` is `str(exc)`.
 */

/** A Python exception that is not a DRF APIException. `pyClass` is `type(exc).__name__`. */
export class PyException extends Error {
  constructor(
    readonly pyClass: string,
    message: string,
    /** Whether it is a ValueError (DRF's JSONParser turns those into a 400 parse error). */
    readonly isValueError = false,
  ) {
    super(message);
    this.name = pyClass;
  }
}

/** A DRF APIException with a text detail (ParseError, UnsupportedMediaType, NotFound, …). */
export class DrfApiException extends Error {
  override readonly name = "APIException";
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}
