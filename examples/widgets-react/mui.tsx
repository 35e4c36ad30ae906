import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import { type ReactElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { type Country, countries, useExposed } from './shared';

// Glue only: four MUI components as its docs' demos compose them. Each page (mui-<part>.html) shows
// one of them, named by <body data-part>, so every task has a page of its own.

function CountryField() {
  const [country, setCountry] = useState<Country | null>(null);
  useExposed('countryPicked', country?.code ?? '');
  return (
    <Autocomplete
      options={countries}
      getOptionLabel={(entry) => entry.name}
      value={country}
      onChange={(_event, picked) => setCountry(picked)}
      sx={{ width: 300 }}
      renderInput={(params) => <TextField {...params} label="Country" />}
    />
  );
}

function PlanField() {
  const [plan, setPlan] = useState('free');
  useExposed('plan', plan);
  return (
    <FormControl sx={{ width: 300 }}>
      <InputLabel id="plan-label">Plan</InputLabel>
      <Select
        labelId="plan-label"
        id="plan"
        value={plan}
        label="Plan"
        onChange={(event) => setPlan(event.target.value)}
      >
        <MenuItem value="free">Free</MenuItem>
        <MenuItem value="pro">Pro</MenuItem>
        <MenuItem value="business">Business</MenuItem>
      </Select>
    </FormControl>
  );
}

function DeleteProject() {
  const [open, setOpen] = useState(false);
  const [deleted, setDeleted] = useState(false);
  useExposed('projectDeleted', deleted);
  return (
    <>
      <p>{deleted ? 'The project was deleted.' : 'Project "Apollo"'}</p>
      <Button variant="outlined" color="error" onClick={() => setOpen(true)}>
        Delete project
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="delete-title">
        <DialogTitle id="delete-title">Delete "Apollo"?</DialogTitle>
        <DialogContent>
          <DialogContentText>Its issues and files are removed for everyone.</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Cancel</Button>
          <Button
            color="error"
            onClick={() => {
              setDeleted(true);
              setOpen(false);
            }}
          >
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

function AccountTabs() {
  const [tab, setTab] = useState('profile');
  useExposed('accountTab', tab);
  return (
    <Box>
      <Tabs value={tab} onChange={(_event, picked: string) => setTab(picked)} aria-label="Account sections">
        <Tab value="profile" label="Profile" id="tab-profile" aria-controls="panel" />
        <Tab value="billing" label="Billing" id="tab-billing" aria-controls="panel" />
        <Tab value="security" label="Security" id="tab-security" aria-controls="panel" />
      </Tabs>
      <div role="tabpanel" id="panel" aria-labelledby={`tab-${tab}`}>
        {tab === 'billing' ? 'Visa ending 4242' : tab === 'security' ? 'Two-factor: on' : 'Ada Lovelace'}
      </div>
    </Box>
  );
}

const parts: Record<string, () => ReactElement> = {
  autocomplete: CountryField,
  select: PlanField,
  dialog: DeleteProject,
  tabs: AccountTabs,
};
const Part = parts[document.body.dataset.part ?? ''] ?? AccountTabs;

createRoot(document.getElementById('root') as HTMLElement).render(
  <main>
    <h1>Account</h1>
    <Part />
  </main>,
);
