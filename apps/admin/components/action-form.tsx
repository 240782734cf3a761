'use client';
// A form whose server action answers with FormState: the refusal, each field's message beside
// its field, and a confirmation. Browser validation is off: the API is the one judge.
import {
  createContext,
  type FormEvent,
  type ReactNode,
  startTransition,
  useActionState,
  useContext,
  useEffect,
  useId,
  useRef,
} from 'react';
import { EMPTY_FORM, type FormState } from '../lib/form-state.ts';
import { ErrorMessage } from './error-message.tsx';

type Action = (previous: FormState, form: FormData) => Promise<FormState>;

const FormStateContext = createContext<FormState>(EMPTY_FORM);

export function ActionForm(props: {
  readonly action: Action;
  readonly csrf?: string;
  readonly submit: string;
  readonly label?: string;
  readonly className?: string;
  readonly danger?: boolean;
  readonly children?: ReactNode;
}) {
  const [state, formAction, pending] = useActionState(props.action, EMPTY_FORM);
  const formRef = useRef<HTMLFormElement>(null);
  // React empties a form's fields once its action has run. A refused form keeps what was typed,
  // so a person fixes the field named beside it rather than typing everything again; a change
  // that went through starts the form afresh. Without JavaScript the form posts as is.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const data = new FormData(event.currentTarget, submitter);
    startTransition(() => formAction(data));
  };
  useEffect(() => {
    if (state.ok !== undefined) formRef.current?.reset();
  }, [state]);
  return (
    <form
      ref={formRef}
      action={formAction}
      onSubmit={submit}
      noValidate
      className={props.className}
      aria-label={props.label}
    >
      {props.csrf !== undefined && <input type="hidden" name="csrf" value={props.csrf} />}
      <FormStateContext.Provider value={state}>{props.children}</FormStateContext.Provider>
      <button type="submit" disabled={pending} className={props.danger ? 'danger' : undefined}>
        {props.submit}
      </button>
      <ErrorMessage>{state.error}</ErrorMessage>
      {state.ok !== undefined && (
        <p role="status" className="ok">
          {state.ok}
        </p>
      )}
      {state.secret !== undefined && (
        <p className="secret">
          Shown once, copy it now: <code data-testid="secret">{state.secret}</code>
        </p>
      )}
    </form>
  );
}

export function Field(props: {
  readonly name: string;
  readonly label: string;
  readonly type?: string;
  readonly defaultValue?: string;
  readonly placeholder?: string;
  readonly multiline?: boolean;
  readonly hidden?: boolean;
}) {
  const state = useContext(FormStateContext);
  const id = useId();
  const message = state.fields?.[props.name];
  const common = {
    id,
    name: props.name,
    defaultValue: props.defaultValue,
    placeholder: props.placeholder,
    'aria-invalid': message !== undefined,
    'aria-describedby': message !== undefined ? `${id}-error` : undefined,
  };
  return (
    <label htmlFor={id} className={props.hidden ? 'honeypot' : 'field'} aria-hidden={props.hidden}>
      <span>{props.label}</span>
      {props.multiline ? (
        <textarea {...common} rows={3} />
      ) : (
        <input
          {...common}
          type={props.type ?? 'text'}
          tabIndex={props.hidden ? -1 : undefined}
          autoComplete={props.hidden ? 'off' : undefined}
        />
      )}
      {message !== undefined && (
        <span id={`${id}-error`} className="field-error">
          {message}
        </span>
      )}
    </label>
  );
}
