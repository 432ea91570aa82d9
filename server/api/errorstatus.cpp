#include "server/api/errorstatus.h"

int ErrorStatus::of(DomainError::Kind kind)
{
    switch (kind) {
    case DomainError::BadRequest:
        return 400;
    case DomainError::Unauthorized:
        return 401;
    case DomainError::Forbidden:
        return 403;
    case DomainError::NotFound:
        return 404;
    case DomainError::Conflict:
        return 409;
    case DomainError::TooLarge:
        return 413;
    case DomainError::Unprocessable:
        return 422;
    case DomainError::RateLimited:
        return 429;
    case DomainError::Unavailable:
        return 503;
    case DomainError::StorageFull:
        return 507; // Insufficient Storage (RFC 4918): not 503, which the client may retry at once
    }
    return 400;
}
