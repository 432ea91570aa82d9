#pragma once

#include "model/core/errors.h"

// The one table from a refusal's kind to the HTTP status the API answers with.
namespace ErrorStatus {
int of(DomainError::Kind kind);
} // namespace ErrorStatus
