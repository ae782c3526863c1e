/**
 * An RFC 3339 time as a datetime-local input value (the operator's local time, to the second).
 * @param {string} iso
 * @returns {string}
 */
export function toLocalDateTimeInput(iso: string): string;
/**
 * A datetime-local input value (local time, no offset) as RFC 3339 with the operator's offset, e.g. 2025-06-01T14:00:00+02:00.
 * @param {string} value
 * @returns {string | undefined} undefined when the value is not a time
 */
export function fromLocalDateTimeInput(value: string): string | undefined;
/**
 * One property schema as a field descriptor.
 * @param {string} name
 * @param {unknown} schema
 * @param {boolean} required
 * @returns {FieldDescriptor}
 */
export function fieldFromProperty(name: string, schema: unknown, required: boolean): FieldDescriptor;
/**
 * The fields of a form elicitation's requestedSchema, in the order of its properties.
 * @param {unknown} requestedSchema
 * @returns {FieldDescriptor[]}
 */
export function fieldsFromSchema(requestedSchema: unknown): FieldDescriptor[];
/**
 * The `content` of an accept from what the form holds, or every field's problem.
 * @param {FieldDescriptor[]} fields
 * @param {Record<string, FormValue | undefined>} values
 * @returns {ContentResult}
 */
export function contentFromForm(fields: FieldDescriptor[], values: Record<string, FormValue | undefined>): ContentResult;
/**
 * The form field an API error names (`content.ticket`, `ticket`, `content["first name"]`,
 * `requestedSchema.properties.ticket`…), if it is one of the form's.
 * @param {FieldDescriptor[]} fields
 * @param {string | undefined} path
 * @returns {string | undefined}
 */
export function fieldOfErrorPath(fields: FieldDescriptor[], path: string | undefined): string | undefined;
export type Option = {
    value: string;
    label: string;
};
export type FieldKind = "text" | "number" | "checkbox" | "select" | "multiselect" | "json";
export type TextInputType = "text" | "email" | "url" | "date" | "datetime-local";
export type FormValue = string | boolean | string[];
export type FieldDescriptor = {
    /**
     * The property name (the key in `content`).
     */
    name: string;
    /**
     * Its `title`, else its name.
     */
    label: string;
    /**
     * Help text.
     */
    description?: string | undefined;
    /**
     * Listed in the schema's `required`.
     */
    required: boolean;
    /**
     * How it is rendered and read back.
     */
    kind: FieldKind;
    /**
     * The input type of a text field (from `format`).
     */
    inputType?: TextInputType | undefined;
    minLength?: number | undefined;
    maxLength?: number | undefined;
    /**
     * A number field that takes whole numbers only.
     */
    integer?: boolean | undefined;
    min?: number | undefined;
    max?: number | undefined;
    /**
     * The input's step: "1" for integers, "any" otherwise.
     */
    step?: string | undefined;
    /**
     * The choices of a select or multi-select.
     */
    options?: Option[] | undefined;
    minItems?: number | undefined;
    maxItems?: number | undefined;
    /**
     * What the input holds at first: the default, else empty.
     */
    initial: FormValue;
};
export type FieldError = {
    field: string;
    message: string;
};
export type ContentResult = {
    ok: true;
    content: Record<string, unknown>;
} | {
    ok: false;
    errors: FieldError[];
};
