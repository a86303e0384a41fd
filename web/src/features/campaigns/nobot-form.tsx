import { Stack } from '@chakra-ui/react';
import {
  CAMPAIGN_MESSAGES,
  insufficientForNoBot,
  parseMemberCount,
  submitNoBotSchema,
} from '@shared/campaign-schemas.ts';
import { useState, type FormEvent } from 'react';
import { LuSend } from 'react-icons/lu';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toaster.tsx';
import { defaultSpend, memberCostRows, SpendAndSubmit } from './cost-summary.tsx';
import { TargetingFields, targetingOf } from './targeting-fields.tsx';
import { InviteLinkField, ServerNameField, WholeNumberField } from './form-fields.tsx';
import type { SubmitFormProps } from './regular-form.tsx';
import { useSubmitNoBot } from './use-submit-nobot.ts';
import { useFieldErrors } from '../../lib/use-field-errors.ts';
import { firstSchemaProblem } from './validate.ts';
import { useTranslation } from 'react-i18next';

const FIELD_IDS = { name: 'nobot-name', inviteLink: 'nobot-invite', memberCount: 'nobot-members' } as const;
type NoBotField = keyof typeof FIELD_IDS;
const isField = (f: string | null): f is NoBotField => f !== null && Object.hasOwn(FIELD_IDS, f);

/** No-bot campaign: no bot needed, 1 coin per member, members earn 0.20 after 10 seconds. */
export function NoBotForm({
  balanceCents,
  balanceText,
  prefillName,
  prefillInvite,
}: Omit<SubmitFormProps, 'onBotMissing'>) {
  const { t } = useTranslation();
  const [name, setName] = useState(prefillName ?? '');
  const [inviteLink, setInviteLink] = useState(prefillInvite ?? '');
  const [minAge, setMinAge] = useState('');
  const [language, setLanguage] = useState('');
  // Starts at what the balance pays for (10 at most), never at more.
  const [memberCount, setMemberCount] = useState(() => String(defaultSpend(balanceCents)));
  const navigate = useNavigate();
  const submit = useSubmitNoBot({
    // On to the new campaign on My Campaigns (highlighted, with what happens next).
    onSuccess: (server) => void navigate(`/campaigns?new=${encodeURIComponent(server.id)}`),
  });
  const fields = useFieldErrors(FIELD_IDS);
  const members = parseMemberCount(memberCount) ?? 0;
  // The cost against the balance, before Submit: a count the balance cannot pay disables Submit.
  const unaffordable = members > 0 && balanceCents < members * 100;

  /** The spec's toast, plus the message on the field, which takes focus. */
  function fail(field: NoBotField, title: string, description: string) {
    toast({ title, description, variant: 'destructive' });
    fields.show(field, description);
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const count = parseMemberCount(memberCount);
    if (count === null) {
      fail('memberCount', t('submit.validationError'), CAMPAIGN_MESSAGES.memberCount);
      return;
    }
    if (balanceCents < count * 100) {
      fail('memberCount', t('submit.insufficientCoins'), insufficientForNoBot(count, balanceText));
      return;
    }
    const input = { name, inviteLink, memberCount, targeting: targetingOf(minAge, language) };
    const problem = firstSchemaProblem(submitNoBotSchema, input);
    if (problem) {
      fail(isField(problem.field) ? problem.field : 'name', t('submit.validationError'), problem.message);
      return;
    }
    fields.reset();
    submit.mutate(input);
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('submit.nobot.formLabel')}>
      <Stack gap="5">
        <ServerNameField {...fields.bind('name', name, setName)} />
        <InviteLinkField {...fields.bind('inviteLink', inviteLink, setInviteLink)} />
        <WholeNumberField
          name="memberCount"
          label={t('submit.nobot.memberCount')}
          {...fields.bind('memberCount', memberCount, setMemberCount)}
          helper={t('submit.nobot.helper')}
        />
        <TargetingFields
          idPrefix="nobot"
          minAge={minAge}
          language={language}
          onMinAge={setMinAge}
          onLanguage={setLanguage}
        />
        <SpendAndSubmit
          rows={memberCostRows(t, members, 'nobot')}
          balanceCents={balanceCents}
          costCents={members * 100}
          refusal={unaffordable ? insufficientForNoBot(members, balanceText) : null}
          pending={submit.isPending}
          loadingText={t('submit.submitting')}
        >
          <LuSend /> {t('submit.nobot.addServer')}
        </SpendAndSubmit>
      </Stack>
    </form>
  );
}
