/** Every reply of the API: spec section 3, "Reply envelope". */
export interface Envelope<T = unknown> {
  status: number;
  message: string;
  data: T;
}

/** A field-level problem, sent in a 40001 reply's `data.errors` for forms to show next to their field. */
export interface FieldError {
  /** Dot path of the field ("categories.2"). */
  field: string;
  message: string;
}
