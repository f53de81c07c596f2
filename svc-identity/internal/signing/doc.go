// Package signing holds the cryptography of svc-identity: the signature of
// permission decisions (/v2/auth/generate_signature), the user JWT
// (/v2/auth/generate_token) and the per-workspace secrets both are keyed with.
//
// # Permission signature
//
// The signature is the lowercase hexadecimal HMAC-SHA256 of the canonical
// form of the permissions array, keyed with the workspace's signature
// secret. The canonical form is the following UTF-8 JSON text:
//
//  1. The array keeps the permissions in the order they were given. An empty
//     array is written as []. Elements are separated by a single comma.
//  2. Each permission is an object with at most these keys, in exactly this
//     order (lexicographic by byte value): accessRole, expiresAt, hasAccess,
//     resourceId, type, userId. Other keys the request may have carried are
//     not part of the canonical form and are not covered by the signature.
//  3. accessRole is omitted when it is absent or the empty string; expiresAt
//     is omitted when it is absent (null). hasAccess, resourceId, type and
//     userId are always present.
//  4. There is no insignificant whitespace: no space or newline before or
//     after [ ] { } : or the separating commas, and no newline at the end.
//  5. Strings (accessRole, resourceId, type, userId) are enclosed in double
//     quotes. Inside them " is written as \" and \ as \\; the control
//     characters U+0008, U+0009, U+000A, U+000C, U+000D as \b, \t, \n, \f,
//     \r; every other character below U+0020 as \u00XX with two lowercase hex
//     digits (for example \u001f); U+2028 and U+2029 as \u2028 and \u2029;
//     each byte that is not part of valid UTF-8 as \ufffd. Every other
//     character, including < > & / ' and all non-ASCII characters, is
//     written literally in UTF-8 (no HTML escaping, no \u escapes). This is
//     what Go's encoding/json produces with SetEscapeHTML(false), and what
//     JavaScript's JSON.stringify produces for valid strings apart from
//     U+2028 and U+2029.
//  6. expiresAt is written as a decimal integer: an optional minus sign,
//     no leading zeros, no fraction, no exponent (for example 1767225600).
//  7. hasAccess is written as true or false.
//
// Example: the permissions
//
//	[{"userId":"u1","resourceId":"doc-1","type":"document","hasAccess":true,"accessRole":"editor"}]
//
// have the canonical form
//
//	[{"accessRole":"editor","hasAccess":true,"resourceId":"doc-1","type":"document","userId":"u1"}]
//
// and the signature is hex(HMAC-SHA256(signatureSecret, canonicalForm)).
//
// # User token
//
// IssueToken returns a JWT signed with HS256 (the only algorithm ParseToken
// accepts) and the workspace's JWT secret. Its claims are:
//
//	iss        "opencollab"
//	sub        the user id
//	iat        issue time, Unix seconds
//	exp        iat + 48 hours, Unix seconds
//	wid        the workspace id
//	user       the user properties object (name, email, isAdmin, ...)
//	resources  array of {type, id, organizationId?, accessRole, expiresAt?}
//
// There is no nbf, aud or jti claim.
//
// # Secrets
//
// SecretStore keeps one document per workspace in the collection
// workspace_secrets: _id (= workspaceId), workspaceId, signatureSecret and
// jwtSecret (32 random bytes each) and createdAt. Secrets are created on
// first use and never change, so they are cached in the process.
package signing
