import { useId } from 'react';
import { CHASSIS_NUMBER_MAX, VIN_LENGTH } from '@common/vin.ts';
import { FormField, SelectField, TextAreaField, TextField } from '../../../components/ui/form-field.tsx';
import { CheckIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons.tsx';
import { MoneyField } from '../../../components/ui/money-field.tsx';
import type { DossierForm } from '../hooks/use-dossier-form.ts';
import {
  DOSSIER_LIMITS,
  emptyServiceRecord,
  entryErrorKey,
  newDraftKey,
  vinStatus,
  type DossierListName,
  type DraftServiceRecord,
  type ServiceRecordField,
} from '../lib/dossier-form.ts';
import { DossierListField } from './dossier-list-field.tsx';

/** An invoice a service record can point at: a document on the server or one picked here. */
export interface InvoiceChoice {
  value: string;
  label: string;
}

const LISTS: readonly { list: DossierListName; title: string; singular: string; hint: string; placeholder: string }[] = [
  {
    list: 'knownFlaws',
    title: 'Known flaws',
    singular: 'Known flaw',
    hint: 'Every flaw a buyer would want to know of: chips, scuffs, wear, warning lights. The buyer checks each one in escrow.',
    placeholder: 'Stone chips on the front bumper',
  },
  {
    list: 'modifications',
    title: 'Modifications',
    singular: 'Modification',
    hint: 'Anything changed from factory specification.',
    placeholder: 'Akrapovič titanium exhaust',
  },
  {
    list: 'itemsIncluded',
    title: 'Items included',
    singular: 'Included item',
    hint: 'What comes with the car: keys, manuals, covers, spare parts.',
    placeholder: 'Both keys, the car cover and the original floor mats',
  },
];

/** VIN or chassis number, the three lists and the service records: the dossier the buyer is promised. */
export function DossierFields({
  idBase,
  form,
  car,
  invoices,
  disabled,
}: {
  idBase: string;
  form: DossierForm;
  /** The make and year the VIN is checked against (as typed on the form, for a new listing). */
  car: { make: string; year: number | null };
  invoices: readonly InvoiceChoice[];
  disabled?: boolean;
}) {
  return (
    <div className="sell-stack dossier-fields">
      <IdentityField idBase={idBase} form={form} car={car} disabled={disabled} />
      {LISTS.map((spec) => (
        <DossierListField
          key={spec.list}
          idBase={idBase}
          {...spec}
          items={form.values[spec.list]}
          errors={Object.fromEntries(form.values[spec.list].map((item) => [item.key, form.errors[entryErrorKey(spec.list, item.key)]]))}
          listError={form.errors[spec.list]}
          max={DOSSIER_LIMITS.maxListItems}
          maxLength={DOSSIER_LIMITS.itemText}
          disabled={disabled}
          onChange={(items) => form.setList(spec.list, items)}
          onBlur={(key) => form.touch(entryErrorKey(spec.list, key))}
          newKey={newDraftKey}
        />
      ))}
      <ServiceRecordsField idBase={idBase} form={form} invoices={invoices} disabled={disabled} />
    </div>
  );
}

function IdentityField({ idBase, form, car, disabled }: { idBase: string; form: DossierForm; car: { make: string; year: number | null }; disabled?: boolean }) {
  const { values, errors } = form;
  const vinId = `${idBase}-field-vin`;
  const chassisId = `${idBase}-field-chassisNumber`;
  const status = vinStatus(values.vin, car);
  // The rule's verdict shows as soon as the 17th character is typed; a wrong one in the error's place.
  const vinError = errors.vin ?? (status.state === 'wrong' ? status.message : undefined);
  return (
    <div className="sell-stack dossier-identity">
      <fieldset className="field sell-choice" role="radiogroup" aria-labelledby={`${idBase}-identity-legend`}>
        <legend id={`${idBase}-identity-legend`} className="field__label">
          How is the car identified?
        </legend>
        <div className="sell-choice__options">
          {(
            [
              ['vin', 'VIN (17 characters)'],
              ['chassis', 'Chassis number'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="sell-choice__option">
              <input
                type="radio"
                name={`${idBase}-identity`}
                value={value}
                checked={values.identity === value}
                disabled={disabled}
                onChange={() => form.setIdentity(value)}
              />
              <span>{label}</span>
            </label>
          ))}
        </div>
        <p className="field__hint sell-field__hint">Cars from before 1981 and Japanese-market cars often have a chassis number instead of a VIN.</p>
      </fieldset>
      {values.identity === 'vin' ? (
        <FormField
          id={vinId}
          className="sell-field dossier-vin"
          label="VIN"
          optional
          hint={`${VIN_LENGTH} letters and digits, on the windscreen and the title. North American VINs are checked digit by digit.`}
          error={vinError}
          errorTestId="error-vin"
        >
          {(aria) => (
            <>
              <input
                {...aria}
                aria-describedby={[aria['aria-describedby'], status.state === 'ok' ? `${vinId}-check` : ''].filter(Boolean).join(' ') || undefined}
                name="vin"
                className="input dossier-vin__input"
                type="text"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={VIN_LENGTH}
                placeholder="WP0AB2A93NS270123"
                value={values.vin}
                disabled={disabled}
                onChange={(event) => form.setVin(event.target.value.toUpperCase())}
                onBlur={() => form.touch('vin')}
              />
              {status.state === 'ok' && !errors.vin && (
                <p id={`${vinId}-check`} className="icon-text dossier-vin__check" data-testid="vin-check" data-check={status.vinCheck}>
                  <CheckIcon size={15} />
                  {status.label}
                </p>
              )}
            </>
          )}
        </FormField>
      ) : (
        <TextField
          id={chassisId}
          name="chassisNumber"
          className="sell-field"
          label="Chassis number"
          optional
          hint="Letters, digits and hyphens, for example BNR32-305156"
          error={errors.chassisNumber}
          errorTestId="error-chassisNumber"
          autoComplete="off"
          spellCheck={false}
          maxLength={CHASSIS_NUMBER_MAX + 5}
          value={values.chassisNumber}
          disabled={disabled}
          onChange={form.setChassisNumber}
          onBlur={() => form.touch('chassisNumber')}
        />
      )}
    </div>
  );
}

function ServiceRecordsField({ idBase, form, invoices, disabled }: { idBase: string; form: DossierForm; invoices: readonly InvoiceChoice[]; disabled?: boolean }) {
  const headingId = useId();
  const records = form.values.serviceRecords;
  const full = records.length >= DOSSIER_LIMITS.maxListItems;

  function add() {
    const key = newDraftKey();
    form.setServiceRecords([...records, emptyServiceRecord(key)]);
    requestAnimationFrame(() => document.getElementById(`${idBase}-service-${key}-date`)?.focus());
  }

  function update(key: string, change: Partial<DraftServiceRecord>) {
    form.setServiceRecords(records.map((r) => (r.key === key ? { ...r, ...change } : r)));
  }

  return (
    <section className="dossier-list" aria-labelledby={headingId} data-testid="dossier-serviceRecords">
      <div className="split-row field__label-row">
        <h4 id={headingId} className="dossier-list__title">
          Service records <span className="field__optional">(optional)</span>
        </h4>
        <span className="field__counter">
          {records.length} / {DOSSIER_LIMITS.maxListItems}
        </span>
      </div>
      <p className="field__hint muted">Each service with its date, mileage, shop and work, and its invoice from the listing's documents.</p>
      {records.length > 0 && (
        <ol className="service-records">
          {records.map((record, index) => (
            <ServiceRecordRow
              key={record.key}
              idBase={`${idBase}-service-${record.key}`}
              index={index}
              record={record}
              form={form}
              invoices={invoices}
              disabled={disabled}
              onChange={(change) => update(record.key, change)}
              onRemove={() => form.setServiceRecords(records.filter((r) => r.key !== record.key))}
            />
          ))}
        </ol>
      )}
      {form.errors.serviceRecords && (
        <p className="field__hint field__hint--error" data-testid="error-serviceRecords">
          {form.errors.serviceRecords}
        </p>
      )}
      <div>
        <button type="button" className="btn btn--outline btn--sm" onClick={add} disabled={disabled || full}>
          <PlusIcon size={16} />
          Add service record
        </button>
      </div>
    </section>
  );
}

function ServiceRecordRow({
  idBase,
  index,
  record,
  form,
  invoices,
  disabled,
  onChange,
  onRemove,
}: {
  idBase: string;
  index: number;
  record: DraftServiceRecord;
  form: DossierForm;
  invoices: readonly InvoiceChoice[];
  disabled?: boolean;
  onChange: (change: Partial<DraftServiceRecord>) => void;
  onRemove: () => void;
}) {
  const error = (field: ServiceRecordField) => form.errors[entryErrorKey('serviceRecords', record.key, field)];
  const blur = (field: ServiceRecordField) => () => form.touch(entryErrorKey('serviceRecords', record.key, field));
  const title = `Service record ${index + 1}`;
  // An invoice picked earlier that is no longer among the documents still shows, so the choice is never silently lost.
  const options = [{ value: '', label: 'No invoice attached' }, ...invoices];
  if (record.document && !invoices.some((i) => i.value === record.document)) options.push({ value: record.document, label: 'A removed document' });
  return (
    <li className="service-record" data-testid="service-record-form" aria-label={title}>
      <div className="split-row service-record__head">
        <p className="service-record__title">{title}</p>
        <button type="button" className="btn btn--outline btn--sm" onClick={onRemove} disabled={disabled}>
          <TrashIcon size={16} />
          Remove<span className="sr-only"> {title.toLowerCase()}</span>
        </button>
      </div>
      <div className="sell-grid">
        <TextField
          id={`${idBase}-date`}
          className="sell-field"
          label="Date"
          type="date"
          error={error('date')}
          value={record.date}
          disabled={disabled}
          onChange={(date) => onChange({ date })}
          onBlur={blur('date')}
        />
        <TextField
          id={`${idBase}-mileage`}
          className="sell-field"
          label="Mileage"
          hint="Miles on the odometer"
          inputMode="numeric"
          autoComplete="off"
          maxLength={12}
          placeholder="8120"
          error={error('mileage')}
          value={record.mileage}
          disabled={disabled}
          onChange={(mileage) => onChange({ mileage })}
          onBlur={blur('mileage')}
        />
        <TextField
          id={`${idBase}-shop`}
          className="sell-field"
          label="Shop"
          autoComplete="off"
          maxLength={DOSSIER_LIMITS.shop}
          placeholder="Porsche Austin"
          error={error('shop')}
          value={record.shop}
          disabled={disabled}
          onChange={(shop) => onChange({ shop })}
          onBlur={blur('shop')}
        />
        <MoneyField
          id={`${idBase}-cost`}
          className="sell-field"
          label="Cost"
          optional
          maxLength={12}
          placeholder="1450"
          error={error('cost')}
          value={record.cost}
          disabled={disabled}
          onChange={(cost) => onChange({ cost })}
          onBlur={blur('cost')}
        />
      </div>
      <TextAreaField
        id={`${idBase}-work`}
        className="sell-field"
        label="Work done"
        rows={2}
        maxLength={DOSSIER_LIMITS.work}
        placeholder="Annual service, brake fluid"
        error={error('work')}
        value={record.work}
        disabled={disabled}
        onChange={(work) => onChange({ work })}
        onBlur={blur('work')}
      />
      <SelectField
        id={`${idBase}-document`}
        className="sell-field"
        label="Invoice"
        optional
        error={error('document')}
        options={options}
        value={record.document}
        disabled={disabled}
        onChange={(document) => onChange({ document })}
      />
    </li>
  );
}
