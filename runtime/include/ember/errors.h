// Exceptions raised by the Ember runtime. Every error names the problem and,
// where there is one, the object or file it concerns. The Python module maps
// each class to a subclass of ember.EmberError of the same name.
#pragma once

#include <stdexcept>
#include <string>

namespace ember {

/// Base of every error the runtime raises.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A caller passed a malformed argument (wrong length, bad slot count...).
class InvalidArgument : public Error {
public:
  using Error::Error;
};

/// Parameters below the requested security level.
class SecurityError : public Error {
public:
  using Error::Error;
};

/// Operands at different levels, or an operation the level does not allow
/// (rescale at level 0, mod_drop upwards).
class LevelMismatch : public Error {
public:
  using Error::Error;
};

/// Operands with different scales where equal scales are required.
class ScaleMismatch : public Error {
public:
  using Error::Error;
};

/// An evaluation key (relinearization or a Galois element) is missing.
class MissingKey : public Error {
public:
  using Error::Error;
};

/// A serialized object is truncated, corrupt, of another version or type, or
/// was made for other parameters.
class SerializationError : public Error {
public:
  using Error::Error;
};

} // namespace ember
