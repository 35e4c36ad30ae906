/**
 * The extension's public key, pinned in its manifest (`key`), so its id is the same on every
 * machine and the server can check the WebSocket Origin (docs/requirements.md#founding-decisions, decision 9). The id is the
 * first 128 bits of SHA-256 of the key, written with the letters a–p; a unit test recomputes it.
 */
export const EXTENSION_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAw4V9+3eNtxI5UVUPpzEuH+FY4Y1VRImBPWdUZNc+mYxkjDOj9Tn+svORH476h5zK7ZtY8thVEzuXenmlK/Vg+Eu4knsITvwS/Cb8xUUPPy5OKaprtFaW04GcxoIJOug5myPY7I3ySEzHK5U0RC6YhHTNAlglIO/H9/8Lg7snrlQYXgXboyaHieB8S0rISzNDR1W98Rrc4thP8GbDk2STXWQOICrLOgKhIRH+QwMWTbt9lARj9dOx9fxOVqQj8tr3dZ9ZVGbddjTMGiM09iPoC/j/lLLGYUy6rrs3DAWLkZEs+gjOLQUp0FBLobW8717Zdkm5GKRYrNB9EViGRc4X2QIDAQAB';

export const EXTENSION_ID = 'cijnbnobefdookgnohaboodjnoblmogc';

export const EXTENSION_ORIGIN = `chrome-extension://${EXTENSION_ID}`;
